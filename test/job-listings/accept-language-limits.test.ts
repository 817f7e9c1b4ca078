// Issue 9 item 2: a crafted Accept-Language header once cost seconds of CPU per request. The header
// is now read once, up to 20 ranges and 1 KB; the answer for ordinary headers is unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { api, FULL } from './helpers.ts';

let t: TestApp;
let j: ReturnType<typeof api>;
let tenant: Tenant;
let url: string;
beforeAll(async () => {
  t = await buildTestApp();
  j = api(t);
  tenant = await t.tenant();
  const listing = await j.create(tenant.headers, FULL);
  url = `/public/v1/job-listings/${listing.id}`;
  const res = await j.call('PUT', `${url}/translations/de`, tenant.headers, { position: 'Senior-Backend-Entwickler' });
  expect(res.statusCode).toBe(200);
  // A few more listings so the list answers several rows.
  for (let i = 0; i < 3; i++) await j.create(tenant.headers, { ...FULL, position: `Engineer ${i}` });
});
afterAll(async () => t.close());

const junk = (count: number) => Array.from({ length: count }, (_, i) => `q${String.fromCharCode(97 + (i % 26))}-x${i}-y${i}-z${i}`).join(',');

describe('Accept-Language limits', () => {
  it('answers a header near the 16 KB header limit, with the right language', async () => {
    const header = `de, ${junk(1200)}`.slice(0, 15_000);
    const one = await j.call('GET', url, { ...tenant.headers, 'accept-language': header });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-language']).toBe('de');
    expect(one.json().position.value).toBe('Senior-Backend-Entwickler');

    const list = await j.call('GET', '/public/v1/job-listings?size=100', { ...tenant.headers, 'accept-language': header });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-language']).toBe('de, en');
    expect(list.json().data.map((item: { position: { value: string } }) => item.position.value)).toContain('Senior-Backend-Entwickler');
  });

  it('ignores ranges after the twentieth', async () => {
    const res = await j.call('GET', url, { ...tenant.headers, 'accept-language': `${junk(20)}, de` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('en');
    const within = await j.call('GET', url, { ...tenant.headers, 'accept-language': `${junk(19)}, de` });
    expect(within.headers['content-language']).toBe('de');
  });
});
