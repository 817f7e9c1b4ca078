import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/free-port.ts';

export interface ListeningApp extends TestApp {
  baseUrl: string;
  issuer: string;
  /** The first-party dashboard's redirect URI. */
  dashboardRedirect: string;
}

/** The real app on a real port (the relying party speaks HTTP to it), its BASE_URL that address. */
export async function startListeningApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ BASE_URL: baseUrl, PORT: String(port), ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, baseUrl, issuer: `${baseUrl}/oauth2`, dashboardRedirect: `${baseUrl}/dashboard/callback` };
}
