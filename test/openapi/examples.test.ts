// Every request example of the OpenAPI document is sent to the real server (a listening app, over
// HTTP) and must succeed; every example in the document (requests, responses, webhook bodies)
// must match the schema it illustrates; and the server's real answers to those requests must match
// the documented response schemas. Example ids (EXAMPLE_IDS) are swapped for real resources made
// along the way, and the example webhook URL for a local receiver (the server refuses addresses it
// cannot resolve publicly otherwise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_BOARD_SLUG, EXAMPLE_IDS } from '../../src/http/openapi-examples.ts';
import { multipartBody, SAMPLES } from '../documents/samples.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { documentValidator, operationPointer } from './document-schema.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: Array<{ in: string; name: string; example?: string }>;
  requestBody?: { content: { 'application/json'?: { example?: unknown } } };
  responses: Record<string, { content?: { 'application/json'?: { example?: unknown; schema?: unknown } } }>;
}

const EXAMPLE_WEBHOOK_URL = 'https://hooks.example.com/recruiting';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let server: ListeningApp;
let receiver: Receiver;
let doc: Json & { paths: Record<string, Record<string, Operation>> };
let validatorAt: ReturnType<typeof documentValidator>;
const operations = new Map<string, { path: string; method: string; op: Operation }>();

beforeAll(async () => {
  server = await startListeningApp();
  receiver = await startReceiver();
  doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as typeof doc;
  validatorAt = documentValidator(doc);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) operations.set(item[method].operationId, { path, method, op: item[method] });
  }
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

describe('examples in the OpenAPI document', () => {
  it('match their schemas: every request body, response body and webhook body example', () => {
    let checked = 0;
    for (const [operationId, { path, method, op }] of operations) {
      const pointer = operationPointer(path, method);
      // A body with no JSON form (an image, the job board's multipart form) has no JSON example.
      if (op.requestBody?.content['application/json']) {
        const example = op.requestBody.content['application/json'].example;
        expect(example, `${operationId} has a request example`).toBeDefined();
        expect(validatorAt(`${pointer}/requestBody/content/application~1json/schema`)(example), operationId).toEqual([]);
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        expect(media.example, `${operationId} ${status} has an example`).toBeDefined();
        expect(validatorAt(`${pointer}/responses/${status}/content/application~1json/schema`)(media.example), `${operationId} ${status}`).toEqual([]);
        checked++;
      }
    }
    for (const type of Object.keys(doc.webhooks as Json)) {
      const pointer = `/webhooks/${type}/post/requestBody/content/application~1json`;
      const body = ((doc.webhooks as Json)[type] as { post: { requestBody: { content: { 'application/json': { example: unknown } } } } }).post;
      expect(validatorAt(`${pointer}/schema`)(body.requestBody.content['application/json'].example), type).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('succeed against the real server, every operation of the document', async () => {
    const apiKey = (await server.tenant()).apiKey;
    const signIn = async (email: string) => (await dashboardBearer(server, email)).authorization;
    const adminToken = await signIn(`examples.admin.${Date.now()}@example.com`);
    const ids: Record<string, string> = {};
    const done = new Set<string>();

    /** Sends an operation with its documented examples (ids swapped); returns the parsed answer. */
    async function send(operationId: string, expected: number[] = [200, 201, 202, 204]): Promise<Json> {
      const entry = operations.get(operationId);
      expect(entry, `${operationId} is in the document`).toBeDefined();
      const { path, method, op } = entry!;
      const swap = (text: string) => {
        let out = text.replaceAll(EXAMPLE_WEBHOOK_URL, `${receiver.origin}/examples`);
        for (const [kind, id] of Object.entries(EXAMPLE_IDS)) if (ids[kind]) out = out.replaceAll(id, ids[kind]);
        return out;
      };
      let url = path;
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'path') continue;
        expect(parameter.example, `${operationId} {${parameter.name}} has an example`).toBeDefined();
        url = url.replace(`{${parameter.name}}`, swap(parameter.example!));
      }
      const example = op.requestBody?.content['application/json']?.example;
      const headers: Record<string, string> = path.startsWith('/settings/') ? { authorization: adminToken } : { 'x-api-key': apiKey };
      if (example !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${server.baseUrl}${url}`, {
        method: method.toUpperCase(),
        headers,
        ...(example !== undefined ? { body: swap(JSON.stringify(example)) } : {}),
      });
      const text = await response.text();
      expect(expected, `${operationId}: ${method.toUpperCase()} ${url} answered ${response.status} ${text.slice(0, 400)}`).toContain(response.status);
      // A file's bytes (downloads) are no JSON: documented as binary.
      const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
      const body = text && json ? (JSON.parse(text) as Json) : {};
      if (text && json) {
        const schema = `${operationPointer(path, method)}/responses/${response.status}/content/application~1json/schema`;
        expect(validatorAt(schema)(body), `${operationId} ${response.status}: the answer matches the document`).toEqual([]);
      }
      expect(response.headers.get('x-request-id'), operationId).toBeTruthy();
      done.add(operationId);
      return body;
    }

    await send('listSectors');
    await send('listTags');
    await send('getEnums');

    ids.jobListing = (await send('createJobListing')).id as string;
    await send('getJobListing');
    await send('listJobListings');
    await send('updateJobListing');
    await send('putJobListingTranslation');
    await send('listJobListingTranslations');
    await send('publishJobListing');

    const application = await send('submitApplication');
    ids.application = application.id as string;
    ids.candidate = (application.candidate as Json).id as string;
    await send('importCandidates');
    await send('listApplications');
    await send('getApplication');
    await send('updateApplicationStatus');
    await send('listApplicationStatusHistory');
    await send('listRejectionReasons');
    ids.rejectionReason = (await send('createRejectionReason')).id as string;
    await send('getRejectionReason');
    await send('updateRejectionReason');
    await send('deleteRejectionReason');
    await send('listCandidates');
    await send('getCandidate');
    ids.note = (await send('createCandidateNote')).id as string;
    await send('listCandidateNotes');
    await send('listApplicationNotes');
    await send('updateCandidateNote');
    await send('listCandidateActivity');
    await send('listApplicationActivity');
    await send('deleteCandidateNote');
    await send('getHiringOverview');
    // Its listing ids are a required query parameter (the examples name path parameters only).
    const counts = await fetch(`${server.baseUrl}/public/v1/analytics/job-listings?jobListingId=${ids.jobListing}&since=2024-01-01T00:00:00Z`, {
      headers: { 'x-api-key': apiKey },
    });
    const countsBody = (await counts.json()) as Json;
    expect(counts.status, JSON.stringify(countsBody)).toBe(200);
    expect((countsBody.data as Json[])[0]).toMatchObject({ jobListingId: ids.jobListing, newApplications: expect.any(Number) });
    expect(((countsBody.data as Json[])[0] as Json).totalApplications).toBeGreaterThanOrEqual(1);
    expect(validatorAt(`${operationPointer('/public/v1/analytics/job-listings', 'get')}/responses/200/content/application~1json/schema`)(countsBody)).toEqual([]);
    done.add('getJobListingApplicationCounts');
    await send('listEvents');
    ids.file = (await send('uploadCandidateFile')).id as string;
    await send('listCandidateFiles');
    await send('getCandidateFile');
    await send('downloadCandidateFile');
    // The signed link is the credential: no API key.
    const link = await send('createCandidateFileLink');
    const byLink = await fetch(link.url as string);
    expect(byLink.status).toBe(200);
    expect(byLink.headers.get('content-disposition')).toMatch(/^attachment;/);
    done.add('downloadFileByLink');
    await send('exportCandidate');
    await send('deleteCandidateFile');
    // Erasure last of the candidate's operations: the candidate answers 404 from then on.
    await send('eraseCandidate');

    ids.webhook = (await send('createWebhookSubscription')).id as string;
    await send('listWebhookSubscriptions');
    await send('getWebhookSubscription');
    await send('updateWebhookSubscription');
    await send('rotateWebhookSecret');
    await send('pingWebhookSubscription');
    const deliveries = await send('listWebhookDeliveries');
    ids.delivery = ((deliveries.data as Json[])[0] as Json).id as string;
    await send('redeliverWebhookDelivery');
    await send('deleteWebhookSubscription');

    await send('closeJobListing');
    await send('archiveJobListing');
    // DELETE removes only a DRAFT: a second listing from the same example.
    ids.jobListing = (await send('createJobListing')).id as string;
    await send('deleteJobListing');

    ids.apiKey = (await send('createApiKey')).id as string;
    await send('listApiKeys');
    await send('updateApiKey');
    await send('revokeApiKey');
    ids.invitation = (await send('createInvitation')).id as string;
    await send('listInvitations');
    await send('cancelInvitation');
    // A second member to remove: invited, then signed in (which accepts the invitation).
    const secondEmail = `examples.member.${Date.now()}@example.com`;
    const invited = await fetch(`${server.baseUrl}/settings/members/invitations`, {
      method: 'POST',
      headers: { authorization: adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email: secondEmail, role: 'MEMBER' }),
    });
    expect(invited.status).toBe(201);
    await signIn(secondEmail);
    const members = await send('listMembers');
    ids.user = ((members.data as Json[]).find((member) => member.email === secondEmail) as Json).userId as string;
    await send('removeMember');
    // What the admin did above (keys, invitations, the removal) is in the company's audit log.
    const audit = await send('listAuditLog');
    expect((audit.data as Json[]).map((entry) => entry.action)).toContain('member.removed');

    // Review, in the signed-in admin's own company: turn it on, then publish two listings there
    // (they wait in UNDER_REVIEW) to approve one and reject the other.
    await send('getCompanySettings');
    expect((await send('updateCompanySettings')).requiresListingReview).toBe(true);
    const createJobListing = operations.get('createJobListing')!.op.requestBody!.content['application/json']!.example;
    let approved = '';
    for (const operationId of ['approveJobListing', 'rejectJobListing']) {
      const bearer = { authorization: adminToken, 'content-type': 'application/json' };
      const created = await fetch(`${server.baseUrl}/public/v1/job-listings`, { method: 'POST', headers: bearer, body: JSON.stringify(createJobListing) });
      expect(created.status).toBe(201);
      ids.jobListing = ((await created.json()) as Json).id as string;
      const published = await fetch(`${server.baseUrl}/public/v1/job-listings/${ids.jobListing}/publish`, { method: 'POST', headers: { authorization: adminToken } });
      expect(((await published.json()) as Json).status).toBe('UNDER_REVIEW');
      await send(operationId);
      if (operationId === 'approveJobListing') approved = ids.jobListing;
    }

    // Sample data in the same company (listing review on: its listings are approved), and out again.
    await send('getSampleData');
    expect((await send('addSampleData')).present).toBe(true);
    await send('removeSampleData');

    // The job board, in the same company: set up, read, its approved (ACTIVE) listing applied to.
    await send('getBoardSettings');
    expect((await send('updateBoardSettings')).slug).toBe(EXAMPLE_BOARD_SLUG);
    const logo = await fetch(`${server.baseUrl}/settings/company/board/logo`, {
      method: 'PUT',
      headers: { authorization: adminToken, 'content-type': 'image/png' },
      body: SAMPLES.png,
    });
    expect(logo.status, await logo.clone().text()).toBe(200);
    done.add('setBoardLogo');
    ids.jobListing = approved;
    await send('getBoard');
    await send('listBoardJobs');
    await send('getBoardJob');
    await send('getBoardLogo');
    for (const [operationId, path] of [
      ['preflightBoard', ''],
      ['preflightBoardJobs', '/jobs'],
      ['preflightBoardJob', `/jobs/${approved}`],
      ['preflightBoardLogo', '/logo'],
    ]) {
      const preflight = await fetch(`${server.baseUrl}/boards/${EXAMPLE_BOARD_SLUG}${path}`, { method: 'OPTIONS' });
      expect(preflight.status).toBe(204);
      done.add(operationId);
    }
    const { formToken } = await send('startBoardApplication');
    server.clock.advance(10_000);
    const { payload, headers: formHeaders } = multipartBody(
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada.board@example.com', privacyConsent: 'true', formToken: formToken as string },
      { name: 'resume', fileName: 'cv.pdf', bytes: SAMPLES.pdf },
    );
    const applied = await fetch(`${server.baseUrl}/boards/${EXAMPLE_BOARD_SLUG}/jobs/${approved}/applications`, { method: 'POST', headers: formHeaders, body: payload });
    const receipt = await applied.text();
    expect(applied.status, receipt).toBe(201);
    expect(validatorAt(`${operationPointer('/boards/{slug}/jobs/{id}/applications', 'post')}/responses/201/content/application~1json/schema`)(JSON.parse(receipt))).toEqual([]);
    done.add('applyToBoardJob');
    await send('deleteBoardLogo');

    expect([...operations.keys()].filter((operationId) => !done.has(operationId))).toEqual([]);
  });
});
