// A local OpenID provider standing in for Google (or LinkedIn's OpenID Connect): a real oidc-provider instance on loopback whose
// sign-in is programmatic: each authorization logs in the account the test chose with
// `signInAs`, and grants the scopes asked for. It records what each authorization request carried
// so tests can see PKCE and the nonce arrive.
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface FakeAccount {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  picture?: string;
}

export interface FakeGoogle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorization signs in. */
  signInAs(account: FakeAccount): void;
  /** Parameters of each authorization request received (code_challenge, nonce, state, ...). */
  authorizations: Record<string, string>[];
  /**
   * While on, the ID tokens the token endpoint answers are signed again with a key that is not in
   * the published JWKS (same header, same claims): what a forger without the provider's key makes.
   */
  forgeIdTokens(on: boolean): void;
  close(): Promise<void>;
}

export async function startFakeGoogle(options: {
  redirectUris: string[];
  /** Google requires PKCE from us; LinkedIn (without PKCE enabled for the app) does not take it. */
  pkceRequired?: boolean;
}): Promise<FakeGoogle> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'fake-google-client';
  const clientSecret = 'fake-google-secret-0123456789abcdef';
  const accounts = new Map<string, FakeAccount>();
  let next: FakeAccount | undefined;
  const authorizations: Record<string, string>[] = [];

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Like Google: the profile and e-mail claims travel in the ID token itself.
    conformIdTokenClaims: false,
    // Like Google with our connector: an authorization without PKCE is refused.
    pkce: { required: () => options.pkceRequired ?? true },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['fake-google-cookie-key'] },
  });
  provider.on('server_error', (_ctx, error) => console.error('fake google server_error', error));

  let forging = false;
  const { privateKey: forgerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forge = (jwt: string) => {
    const [header, payload] = jwt.split('.');
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), forgerKey).toString('base64url');
    return `${header}.${payload}.${signature}`;
  };
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (forging && ctx.path === '/token' && typeof body?.id_token === 'string') ctx.body = { ...body, id_token: forge(body.id_token) };
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      authorizations.push(Object.fromEntries(Object.entries(details.params).map(([k, v]) => [k, String(v)])));
      if (!next) throw new Error('fake google: no account chosen with signInAs');
      accounts.set(next.sub, next);
      const grant = new provider.Grant({ accountId: next.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: next.sub }, consent: { grantId } });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(account) {
      next = account;
    },
    authorizations,
    forgeIdTokens(on) {
      forging = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
