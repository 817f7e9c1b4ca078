// A small local stand-in for Facebook Login: the OAuth dialog (signs in the person the test chose
// and redirects straight back with a code), the token endpoint (client secret, redirect URI and
// PKCE verifier checked as Facebook does) and the Graph `me` call (Bearer token and
// appsecret_proof checked).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFacebookPerson {
  id: string;
  name?: string;
  /** Omitted: the person has no confirmed e-mail (Facebook then leaves the field out). */
  email?: string;
  pictureUrl?: string;
}

export interface FakeFacebook {
  authorizeUrl: string;
  tokenUrl: string;
  graphUrl: string;
  clientId: string;
  clientSecret: string;
  signInAs(person: FakeFacebookPerson): void;
  /** Query parameters of each dialog request. */
  dialogs: Record<string, string>[];
  /** Requests to the Graph `me` call. */
  meCalls: { fields: string | null; proofValid: boolean }[];
  close(): Promise<void>;
}

interface IssuedCode {
  person: FakeFacebookPerson;
  redirectUri: string;
  codeChallenge: string | null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const oauthError = (message: string) => ({ error: { message, type: 'OAuthException', code: 100 } });

export async function startFakeFacebook(): Promise<FakeFacebook> {
  const clientId = '1234567890';
  const clientSecret = 'fake-facebook-app-secret';
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, FakeFacebookPerson>();
  const dialogs: Record<string, string>[] = [];
  const meCalls: FakeFacebook['meCalls'] = [];
  let next: FakeFacebookPerson | undefined;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === '/dialog/oauth') {
        const params = Object.fromEntries(url.searchParams);
        dialogs.push(params);
        if (params.client_id !== clientId || !params.redirect_uri || !next) return json(res, 400, oauthError('bad dialog request'));
        const code = randomBytes(16).toString('hex');
        codes.set(code, { person: next, redirectUri: params.redirect_uri, codeChallenge: params.code_challenge ?? null });
        const back = new URL(params.redirect_uri);
        back.searchParams.set('code', code);
        if (params.state) back.searchParams.set('state', params.state);
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/oauth/access_token') {
        const form = new URLSearchParams(await readBody(req));
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
          return json(res, 400, oauthError('Error validating client secret.'));
        }
        if (!issued || issued.redirectUri !== form.get('redirect_uri')) return json(res, 400, oauthError('Invalid verification code format.'));
        if (issued.codeChallenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) {
            return json(res, 400, oauthError('Invalid code verifier.'));
          }
        }
        const accessToken = `EAAfake${randomBytes(24).toString('hex')}`;
        tokens.set(accessToken, issued.person);
        return json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 5183944 });
      }
      if (req.method === 'GET' && url.pathname === '/me') {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /i, '');
        const person = tokens.get(token);
        const proof = createHmac('sha256', clientSecret).update(token).digest('hex');
        const proofValid = url.searchParams.get('appsecret_proof') === proof;
        meCalls.push({ fields: url.searchParams.get('fields'), proofValid });
        if (!person) return json(res, 401, oauthError('Invalid OAuth access token.'));
        if (!proofValid) return json(res, 400, oauthError('Invalid appsecret_proof provided in the API argument'));
        return json(res, 200, {
          id: person.id,
          ...(person.name ? { name: person.name } : {}),
          ...(person.email ? { email: person.email } : {}),
          picture: { data: { height: 50, width: 50, is_silhouette: !person.pictureUrl, url: person.pictureUrl ?? 'https://example.invalid/silhouette.png' } },
        });
      }
      json(res, 404, oauthError('Unknown path'));
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    authorizeUrl: `${base}/dialog/oauth`,
    tokenUrl: `${base}/oauth/access_token`,
    graphUrl: base,
    clientId,
    clientSecret,
    signInAs(person) {
      next = person;
    },
    dialogs,
    meCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
