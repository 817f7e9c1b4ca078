// OAuth clients. The dashboard is a first-party public client (PKCE, no secret, no consent screen),
// configured at start. Other clients are registered by an operator (CLI `client create`) and kept
// in the database; a confidential client's secret is shown once and only its SHA-256 is stored
// (the provider compares hashes: see provider.ts).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../shared/context.ts';
import { ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { listPayloadsOfKind, upsertPayload } from './repo.ts';

export const DASHBOARD_CLIENT_ID = 'dashboard';

export function dashboardRedirectUris(baseUrl: string): string[] {
  return [`${baseUrl}/dashboard/callback`];
}

export function dashboardClient(baseUrl: string): Record<string, unknown> {
  return {
    client_id: DASHBOARD_CLIENT_ID,
    client_name: 'Recruiting dashboard',
    token_endpoint_auth_method: 'none',
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: dashboardRedirectUris(baseUrl),
    post_logout_redirect_uris: [`${baseUrl}/dashboard/`],
  };
}

/** Where a person signs in: starts the dashboard's authorization request (see routes.ts). */
export function signInUrl(baseUrl: string): string {
  return `${baseUrl}/sign-in`;
}

export function isFirstPartyClient(clientId: string): boolean {
  return clientId === DASHBOARD_CLIENT_ID;
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface CreateClientInput {
  name: string;
  redirectUris: string[];
  /** A public client (a native or browser app) has no secret and authenticates with PKCE alone. */
  public: boolean;
}

export interface CreatedClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  public: boolean;
  /** Confidential clients only: shown this once, never stored in clear. */
  clientSecret?: string;
  tokenEndpointAuthMethod: string;
}

function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash) return 'must not have a fragment';
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return undefined;
  // Native apps may use a private-use scheme (RFC 8252), e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return undefined;
  return 'must be https (http only for localhost, or a private-use scheme such as com.example.app:)';
}

export async function createClient(ctx: ServiceContext, input: CreateClientInput): Promise<CreatedClient> {
  const details: ErrorDetail[] = [];
  const name = input.name?.trim() ?? '';
  if (name.length < 1 || name.length > 100) details.push({ field: 'name', message: 'must be 1 to 100 characters' });
  if (input.redirectUris.length === 0 || input.redirectUris.length > 10) {
    details.push({ field: 'redirectUris', message: 'give 1 to 10 redirect URIs' });
  }
  input.redirectUris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) details.push({ field: `redirectUris[${index}]`, message: problem });
  });
  if (details.length > 0) throw new ValidationError(details);

  const clientId = `client_${randomUUID().replaceAll('-', '')}`;
  const clientSecret = input.public ? undefined : randomBytes(32).toString('base64url');
  const tokenEndpointAuthMethod = input.public ? 'none' : 'client_secret_basic';
  const metadata: Record<string, unknown> = {
    client_id: clientId,
    client_name: name,
    redirect_uris: input.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: tokenEndpointAuthMethod,
    client_id_issued_at: Math.floor(ctx.clock.now().getTime() / 1000),
  };
  if (clientSecret) metadata.client_secret = hashClientSecret(clientSecret);
  await upsertPayload(ctx.db, { kind: 'Client', id: clientId, payload: metadata, grantId: null, uid: null, userCode: null, expiresAt: null });
  return { clientId, name, redirectUris: input.redirectUris, public: input.public, tokenEndpointAuthMethod, ...(clientSecret ? { clientSecret } : {}) };
}

export async function listClients(ctx: ServiceContext): Promise<Array<Omit<CreatedClient, 'clientSecret'>>> {
  return (await listPayloadsOfKind(ctx.db, 'Client')).map(({ payload }) => ({
    clientId: String(payload.client_id),
    name: String(payload.client_name),
    redirectUris: payload.redirect_uris as string[],
    public: payload.token_endpoint_auth_method === 'none',
    tokenEndpointAuthMethod: String(payload.token_endpoint_auth_method),
  }));
}
