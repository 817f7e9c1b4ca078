// What every answer must satisfy, whatever was sent, and the grouping of violations into classes
// (operation, kind, status, error code, server error) so that one bug is reported once, with the
// smallest request that showed it.
import type { FuzzRequest, Operation } from './requests.ts';

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

export interface Observation {
  op: Operation;
  request: FuzzRequest;
  answer: Answer;
  /** Tables the request wrote to (committed). */
  changed: string[];
  /** Tables in which the request wrote rows of the other company. */
  otherChanged: string[];
  /** The error the server raised, when it logged one (500s). */
  serverError: string | undefined;
}

export interface Violation {
  kind: string;
  detail: string;
}

const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;
// The only answers allowed when a path names another company's resource: 404, or an error raised
// before the resource is looked at (bad body, bad key, rate limit).
const TENANCY_OK = new Set([400, 401, 403, 404, 413, 414, 415, 422, 429]);

function envelopeProblems(answer: Answer, requestPath: string): string[] {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return [`body is not JSON: ${answer.body.slice(0, 80)}`];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['body is not an object'];
  const problems: string[] = [];
  if (body.status !== answer.statusCode) problems.push(`status field ${String(body.status)}`);
  if (typeof body.error !== 'string' || !ERROR_CODE.test(body.error)) problems.push(`error field ${JSON.stringify(body.error)}`);
  if (typeof body.message !== 'string' || body.message.length === 0) problems.push('no message');
  if (typeof body.timestamp !== 'string' || Number.isNaN(Date.parse(body.timestamp))) problems.push('no timestamp');
  if (body.path !== requestPath) problems.push(`path field ${JSON.stringify(body.path)} (sent ${JSON.stringify(requestPath)})`);
  if (body.details !== undefined) {
    const details = body.details as unknown[];
    const wellFormed = Array.isArray(details) && details.every((d) => d && typeof (d as { field?: unknown }).field === 'string' && typeof (d as { message?: unknown }).message === 'string');
    if (!wellFormed) problems.push('details not [{ field, message }]');
  }
  const extra = Object.keys(body).filter((key) => !['status', 'error', 'message', 'timestamp', 'path', 'details'].includes(key));
  if (extra.length > 0) problems.push(`extra fields ${extra.join(', ')}`);
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) problems.push(`content-type ${type}`);
  return problems;
}

export function violationsOf(observation: Observation, otherIds: Set<string>, otherMarker: string): Violation[] {
  const { op, request, answer, changed, otherChanged } = observation;
  const status = answer.statusCode;
  const violations: Violation[] = [];
  const isTestPing = op.id === 'POST /public/v1/webhooks/{id}/test';

  if (status >= 500 && !(isTestPing && status === 502)) violations.push({ kind: 'server fault', detail: `${status}` });
  else if (!op.statuses.has(status)) violations.push({ kind: 'status not in the document', detail: `${status}; documented: ${[...op.statuses].join(', ')}` });

  if (!answer.headers['x-request-id']) violations.push({ kind: 'no X-Request-Id', detail: '' });
  if (status >= 400) {
    // As the server saw it: the injector resolves dot segments (/a/%2e%2e/b is /b) as clients do.
    const problems = envelopeProblems(answer, new URL(request.url, 'http://localhost').pathname);
    if (problems.length > 0) violations.push({ kind: 'error is not the envelope', detail: problems.join('; ') });
  }

  // A failed request writes nothing; a 502 of the test ping keeps its delivery log by design.
  const mayWrite = status < 400 && op.method !== 'GET';
  if (!mayWrite && !(isTestPing && status === 502) && changed.length > 0) {
    violations.push({ kind: op.method === 'GET' ? 'a read wrote' : 'a failed request wrote', detail: changed.join(', ') });
  }
  if (otherChanged.length > 0) violations.push({ kind: "another company's rows changed", detail: otherChanged.join(', ') });

  const path = request.url.split('?')[0];
  const namesOther = path.split('/').some((segment) => otherIds.has(segment));
  if (namesOther && status < 500 && !TENANCY_OK.has(status)) violations.push({ kind: "another company's id did not answer 404", detail: `${status}` });

  // (Unless the caller sent it: importing an address the other company also has is fine.)
  const sentMarker = `${request.url} ${typeof request.payload === 'string' ? request.payload : ''}`.toUpperCase().includes(otherMarker);
  if (!sentMarker && answer.body.toUpperCase().includes(otherMarker)) violations.push({ kind: "another company's data in the answer", detail: '' });
  if (status < 300) {
    const sent = `${request.url} ${typeof request.payload === 'string' ? request.payload : ''}`;
    const leaked = [...otherIds].filter((id) => answer.body.includes(id) && !sent.includes(id));
    if (leaked.length > 0) violations.push({ kind: "another company's id in the answer", detail: leaked.join(', ') });
  }
  return violations;
}

function errorCodeOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : '';
  } catch {
    return '';
  }
}

/** Server error messages without the ids and numbers that differ from one request to the next. */
function normalise(message: string): string {
  return message
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\$\d+/g, '$n')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

interface FailureClass {
  key: string;
  count: number;
  example: Observation;
  violation: Violation;
  size: number;
}

const show = (value: string, max: number) => (value.length > max ? `${value.slice(0, max)}... (${value.length} characters)` : value);

function requestSize(request: FuzzRequest): number {
  return request.url.length + JSON.stringify(request.headers).length + (request.payload?.length ?? 0);
}

export class FailureClasses {
  private readonly classes = new Map<string, FailureClass>();

  add(observation: Observation, violations: Violation[]): void {
    for (const violation of violations) {
      const code = errorCodeOf(observation.answer.body);
      const cause = violation.kind === 'server fault' && observation.serverError ? ` · ${normalise(observation.serverError)}` : '';
      const key = `${observation.op.id} · ${violation.kind} · ${observation.answer.statusCode} ${code}${cause}`;
      const size = requestSize(observation.request);
      const existing = this.classes.get(key);
      if (!existing) this.classes.set(key, { key, count: 1, example: observation, violation, size });
      else {
        existing.count++;
        // Keep the smallest request that shows the class: the easiest to read and replay.
        if (size < existing.size) Object.assign(existing, { example: observation, violation, size });
      }
    }
  }

  get size(): number {
    return this.classes.size;
  }

  report(): string {
    return [...this.classes.values()]
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(({ key, count, example, violation }) => {
        const { request, answer, serverError } = example;
        const payload = request.payload === undefined ? '(none)' : show(typeof request.payload === 'string' ? request.payload : `<${request.payload.length} bytes>`, 400);
        return [
          `✗ ${key}  (${count}x)`,
          `    ${violation.kind}${violation.detail ? `: ${violation.detail}` : ''}`,
          `    request:  ${request.method} ${show(request.url, 300)}`,
          `    headers:  ${show(JSON.stringify({ ...request.headers, 'x-api-key': request.headers['x-api-key'] ? '<key>' : undefined }), 300)}`,
          `    body:     ${payload}`,
          `    made as:  ${show(request.notes.join(' | '), 400)}`,
          `    answer:   ${answer.statusCode} ${show(answer.body, 400)}`,
          ...(serverError ? [`    server:   ${show(serverError, 300)}`] : []),
        ].join('\n');
      })
      .join('\n\n');
  }
}
