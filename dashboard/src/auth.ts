// Sign-in through the service's own authorization server (/oauth2) as the first-party public
// client `dashboard`: authorization code with PKCE (S256). Tokens live in memory only (never in
// storage a script on another tab or an extension reads at leisure); the verifier and state wait in
// sessionStorage across the one redirect. The access token is refreshed shortly before it expires
// (the refresh token rotates: the new one replaces the old), and once more on a 401.
import { replaceAddress } from './router';

const CLIENT_ID = 'dashboard';
const BASE = `${window.location.origin}`;
const REDIRECT_URI = `${BASE}/dashboard/callback`;
const PENDING = 'dashboard.sign-in';

interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** The sign-in's ID token: sign-out sends it back, so the server knows it is the dashboard asking. */
  idToken: string | undefined;
  expiresAt: number;
}

export interface SignedInUser {
  sub: string;
  email: string;
  name?: string;
}

let tokens: Tokens | undefined;
let refreshing: Promise<boolean> | undefined;

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** Sends the browser to the authorization endpoint; comes back to /dashboard/callback. */
export async function startSignIn(returnTo = window.location.pathname + window.location.search): Promise<never> {
  const verifier = randomString(48);
  const state = randomString(16);
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo }));
  const url = new URL(`${BASE}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email',
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: 'S256',
  }).toString();
  // Replace, not assign: the way out through the sign-in leaves no history entry that would send
  // the back button into the sign-in again.
  window.location.replace(url.href);
  return new Promise<never>(() => {});
}

async function tokenRequest(form: Record<string, string>): Promise<Tokens> {
  const response = await fetch(`${BASE}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new Error(`Sign-in failed: ${String(body.error_description ?? body.error ?? response.status)}`);
  }
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    idToken: typeof body.id_token === 'string' ? body.id_token : undefined,
    expiresAt: Date.now() + Number(body.expires_in ?? 60) * 1000,
  };
}

/**
 * On start: finish a sign-in coming back to /dashboard/callback, or start one. A callback this tab
 * did not start (the server's /sign-in address starts its own request) starts a fresh request,
 * which the sign-in session just made lets through without asking again.
 */
let signingIn: Promise<void> | undefined;

export function ensureSignedIn(): Promise<void> {
  // Once per page load, however many components ask (React runs effects twice in development).
  signingIn ??= signIn();
  return signingIn;
}

async function signIn(): Promise<void> {
  if (tokens) return;
  const here = new URL(window.location.href);
  if (here.pathname === '/dashboard/callback') {
    const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as
      | { verifier: string; state: string; returnTo: string }
      | null;
    const error = here.searchParams.get('error');
    if (error) throw new Error(`Sign-in failed: ${here.searchParams.get('error_description') ?? error}`);
    const code = here.searchParams.get('code');
    if (!pending || !code || here.searchParams.get('state') !== pending.state) {
      await startSignIn('/dashboard/');
    }
    sessionStorage.removeItem(PENDING);
    tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT_URI,
      code_verifier: pending!.verifier,
    });
    const back = pending!.returnTo.startsWith('/dashboard') && !pending!.returnTo.startsWith('/dashboard/callback') ? pending!.returnTo : '/dashboard/';
    replaceAddress(back);
    return;
  }
  await startSignIn();
}

async function refresh(): Promise<boolean> {
  if (!tokens?.refreshToken) return false;
  refreshing ??= tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken })
    .then((fresh) => {
      // A refresh answers no new ID token: keep the sign-in's.
      tokens = { ...fresh, idToken: fresh.idToken ?? tokens?.idToken };
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

/** The current access token, refreshed when it expires within 30 seconds. */
export async function accessToken(): Promise<string> {
  if (tokens && tokens.expiresAt - Date.now() < 30_000) await refresh();
  if (!tokens) await startSignIn();
  return tokens!.accessToken;
}

/** After a 401: one refresh; false means sign in again. */
export async function recoverFromUnauthorized(): Promise<boolean> {
  const ok = await refresh();
  if (!ok) await startSignIn();
  return ok;
}

export async function currentUser(): Promise<SignedInUser> {
  const response = await fetch(`${BASE}/oauth2/userinfo`, { headers: { authorization: `Bearer ${await accessToken()}` } });
  if (!response.ok) throw new Error(`Could not read who is signed in (${response.status})`);
  return (await response.json()) as SignedInUser;
}

/**
 * Revokes both tokens, then ends the authorization server's session (RP-initiated logout, with the
 * ID token as the hint, so the server confirms it without asking again) and comes back to
 * /dashboard/, which then shows the sign-in page.
 */
export async function signOut(): Promise<void> {
  const ending = tokens;
  tokens = undefined;
  await Promise.all(
    [ending?.refreshToken, ending?.accessToken].filter((token): token is string => Boolean(token)).map((token) =>
      fetch(`${BASE}/oauth2/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: CLIENT_ID, token }).toString(),
      }).catch(() => undefined),
    ),
  );
  const url = new URL(`${BASE}/oauth2/logout`);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    post_logout_redirect_uri: `${BASE}/dashboard/`,
    ...(ending?.idToken ? { id_token_hint: ending.idToken } : {}),
  }).toString();
  window.location.assign(url.href);
}
