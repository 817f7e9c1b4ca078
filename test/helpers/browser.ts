// A minimal browser for driving sign-in flows over real HTTP: cookie jars (tough-cookie, path
// aware) and redirects followed by hand, so a test sees every hop. One jar per origin: the stand-ins
// for Google and Facebook run on 127.0.0.1 beside our server, on other ports, where in real life
// they are other hosts (a browser would share cookies between ports of one host).
import { CookieJar } from 'tough-cookie';

export interface Hop {
  url: string;
  status: number;
  location: string | undefined;
}

export interface BrowserResponse {
  url: string;
  status: number;
  headers: Headers;
  body: string;
  /** Every request made, in order, with its answer's status and Location. */
  hops: Hop[];
}

export class Browser {
  private readonly jars = new Map<string, CookieJar>();

  jar(url: string): CookieJar {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new CookieJar()));
    return jar;
  }

  /** One request, no redirect following; cookies sent and stored. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookie = await this.jar(url).getCookieString(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const setCookie of response.headers.getSetCookie()) {
      await this.jar(url).setCookie(setCookie, url, { ignoreError: true });
    }
    return response;
  }

  /**
   * Follows redirects (at most `maxHops`) until an answer that is not a redirect, or until `stopAt`
   * says so for a redirect's target (say, the client's redirect URI, which no server answers).
   */
  async follow(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    options: { stopAt?: (location: URL) => boolean; maxHops?: number } = {},
  ): Promise<BrowserResponse> {
    const hops: Hop[] = [];
    let current = url;
    let response = await this.request(current, init);
    for (let hop = 0; ; hop += 1) {
      const location = response.headers.get('location') ?? undefined;
      hops.push({ url: current, status: response.status, location });
      if (response.status < 300 || response.status >= 400 || !location) break;
      const next = new URL(location, current);
      if (options.stopAt?.(next)) {
        await response.body?.cancel();
        return { url: next.href, status: response.status, headers: response.headers, body: '', hops };
      }
      if (hop >= (options.maxHops ?? 20)) throw new Error(`too many redirects: ${hops.map((h) => h.url).join(' -> ')}`);
      await response.body?.cancel();
      current = next.href;
      response = await this.request(current);
    }
    return { url: current, status: response.status, headers: response.headers, body: await response.text(), hops };
  }
}
