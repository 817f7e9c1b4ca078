// The job listing part of the OpenAPI document: valid, complete, and explaining the rules.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('OpenAPI document for job listings', () => {
  it('is a valid OpenAPI 3.1 document with every job listing operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/public/v1/job-listings'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(operations).toEqual([
      'DELETE /public/v1/job-listings/{id}',
      'GET /public/v1/job-listings',
      'GET /public/v1/job-listings/{id}',
      'GET /public/v1/job-listings/{id}/translations',
      'PATCH /public/v1/job-listings/{id}',
      'POST /public/v1/job-listings',
      'POST /public/v1/job-listings/{id}/archive',
      'POST /public/v1/job-listings/{id}/close',
      'POST /public/v1/job-listings/{id}/publish',
      'PUT /public/v1/job-listings/{id}/translations/{lang}',
    ]);
  });

  it('documents the listing, the list item, the lifecycle and the language rules', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const listing = doc.components.schemas.JobListing;
    expect(Object.keys(listing.properties)).toEqual(expect.arrayContaining(['position', 'hiringProcessSteps', 'expiresAt']));
    expect(Object.keys(doc.components.schemas.JobListingListItem.properties).sort()).toEqual(
      ['createdAt', 'id', 'position', 'positionType', 'status', 'updatedAt', 'workPlaceType'],
    );
    const publish = doc.paths['/public/v1/job-listings/{id}/publish'].post;
    expect(publish.description).toMatch(/UNDER_REVIEW/);
    expect(publish.description).toMatch(/expiresAt/);
    const get = doc.paths['/public/v1/job-listings/{id}'].get;
    expect(get.description).toMatch(/Accept-Language/);
    expect(get.responses['200'].headers['Content-Language']).toBeDefined();
    expect(get.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'accept-language')).toBe(true);
  });
});

describe('OpenAPI document for sectors', () => {
  it('says which way subSectorId points, with an example pair that is true of the served data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const sector = doc.components.schemas.Sector;
    expect(sector.properties.subSectorId.description).toMatch(/parent/);
    const example = doc.paths['/public/v1/sectors'].get.responses['200'].content['application/json'].example as Array<{
      id: string;
      subSectorId: string | null;
    }>;
    const [parent, child] = example;
    expect(parent.subSectorId).toBeNull();
    expect(child.subSectorId).toBe(parent.id);
    const { headers } = await t.tenant();
    const served = (await t.app.inject({ method: 'GET', url: '/public/v1/sectors', headers })).json() as typeof example;
    expect(served).toEqual(expect.arrayContaining(example.map((item) => expect.objectContaining(item))));
  });
});
