import { describe, expect, it } from 'vitest';
import { board, job, urls } from '../../../test/careers/fixtures.ts';
import { jobPosting as maybePosting, jsonForScript } from './json-ld.ts';
import type { CareersJob } from './model.ts';

/** A posting the test expects to be there. */
function jobPosting(...args: Parameters<typeof maybePosting>): Record<string, unknown> {
  const posting = maybePosting(...args);
  expect(posting).toBeDefined();
  return posting!;
}
import { assertGoogleJobPosting } from '../../../test/careers/job-posting-rules.ts';

describe('jobPosting', () => {
  it('has every property Google requires, of the right type, and the recommended ones', () => {
    const posting = jobPosting(job(), board, urls);
    assertGoogleJobPosting(posting);
    expect(posting).toMatchObject({
      '@type': 'JobPosting',
      title: 'Backend engineer',
      datePosted: '2026-11-01T09:00:00.000Z',
      validThrough: '2026-12-31T23:59:59.000Z',
      employmentType: 'FULL_TIME',
      identifier: { '@type': 'PropertyValue', value: job().id },
      hiringOrganization: { '@type': 'Organization', name: 'Acme & Söhne', logo: 'https://jobs.example.com/boards/acme/logo' },
      jobLocation: { '@type': 'Place', address: { addressLocality: 'Berlin', addressCountry: 'DE', postalCode: '10115' } },
      url: 'https://jobs.example.com/careers/acme/jobs/0b9d5a0e-4a53-4c64-9e25-2c3b2c8a1f00',
    });
    expect(posting.description).toBe(
      '<p>You build our API.<br>In TypeScript.</p><p>With care.</p><p>Three years of Node.js.</p><ul><li>TypeScript</li><li>SQL</li></ul><ul><li>Train pass</li></ul>',
    );
    expect(posting).not.toHaveProperty('baseSalary');
  });

  it('maps every position type to a Google employment type', () => {
    const types = (['FULL_TIME', 'PART_TIME', 'CONTRACT', 'SELF_EMPLOYED', 'INTERNSHIP'] as const).map(
      (positionType) => jobPosting(job({ positionType }), board, urls).employmentType,
    );
    expect(types).toEqual(['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'CONTRACTOR', 'INTERN']);
  });

  it('marks a remote job TELECOMMUTE with the country applicants must be in', () => {
    const posting = jobPosting(job({ workPlaceType: 'REMOTE', address: { country: 'AT' } }), board, urls);
    assertGoogleJobPosting(posting);
    expect(posting.jobLocationType).toBe('TELECOMMUTE');
    expect(posting.applicantLocationRequirements).toEqual({ '@type': 'Country', name: 'AT' });
  });

  it('gives the salary as a MonetaryAmount, a range or one value, with its unit', () => {
    const range = jobPosting(job({ salary: { currency: 'EUR', min: 50_000, max: 65_000, interval: 'YEARLY' } }), board, urls);
    expect(range.baseSalary).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'EUR',
      value: { '@type': 'QuantitativeValue', minValue: 50_000, maxValue: 65_000, unitText: 'YEAR' },
    });
    const single = jobPosting(job({ salary: { currency: 'EUR', min: 18, interval: 'HOURLY' } }), board, urls);
    expect(single.baseSalary).toEqual({ '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', value: 18, unitText: 'HOUR' } });
  });

  it('escapes markup in texts inside the HTML description', () => {
    const posting = jobPosting(job({ description: '<script>alert(1)</script>', skills: ['<b>'] }), board, urls);
    expect(posting.description).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(posting.description).toContain('<li>&lt;b&gt;</li>');
  });
});

describe('a listing without a place', () => {
  it('gets no markup: neither an address for a job on site nor a country for a remote one', () => {
    const noPlace: Partial<CareersJob> = { address: undefined };
    expect(maybePosting(job({ ...noPlace, workPlaceType: 'ON_SITE' }), board, urls)).toBeUndefined();
    expect(maybePosting(job({ ...noPlace, workPlaceType: 'REMOTE' }), board, urls)).toBeUndefined();
    expect(maybePosting(job({ workPlaceType: 'REMOTE', address: { country: 'DE' } }), board, urls)).toBeDefined();
  });
});

describe('jsonForScript', () => {
  it('cannot close the script element nor open a comment, and parses back to the same value', () => {
    const value = { title: '</script><script>alert(1)</script><!-- & \u2028' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
