// A minimal browser for driving the sign-in pages over real HTTP: keeps cookies (by name, per
// host: enough for one server), follows nothing by itself, and submits forms.

export interface Page {
  status: number;
  location: string | undefined;
  body: string;
  headers: Headers;
  url: string;
}

export class Browser {
  private readonly cookies = new Map<string, string>();

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The value of a cookie the browser holds. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Page> {
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...this.cookieHeader(),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.remember(response);
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location ? new URL(location, url).href : undefined,
      body: await response.text(),
      headers: response.headers,
      url,
    };
  }

  /** Follows redirects from url until one leaves for `stopAt` (returned, not fetched) or a page answers. */
  async follow(url: string, stopAt: string, init: { form?: Record<string, string> } = {}): Promise<Page> {
    let page = await this.request(url, init);
    for (let hops = 0; hops < 10; hops++) {
      if (!page.location || page.status < 300 || page.status >= 400) return page;
      if (page.location.startsWith(stopAt)) return page;
      page = await this.request(page.location);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/** The action of the form on the page whose action ends with `suffix`. */
export function formAction(page: Page, suffix: string): string {
  const actions = [...page.body.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
  const action = actions.find((a) => a.endsWith(suffix));
  if (!action) throw new Error(`no form ending in ${suffix} on ${page.url}: ${page.body.slice(0, 500)}`);
  return new URL(action, page.url).href;
}
