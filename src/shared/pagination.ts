// Pages as services answer them: a page request in, the items of that page and the totals out.
// The HTTP side (query parameters and the envelope schema) is src/http/pagination.ts; the SQL side
// of keyset pages (the "after this row" condition) is src/db/keyset.ts.
//
// Two ways to ask for a page (docs/decisions.md, "Pagination"): an offset `page`, or a `cursor`
// taken from the previous answer's `nextCursor`. A cursor names the last row seen by its sort keys,
// so rows inserted or deleted meanwhile never shift the next page (no duplicate, no gap). It is
// opaque to clients and bound to its list, the caller's company and the filters it was made with.
// It is signed with a key of the server's (a MAC from the secret box, see secret-box.ts): a cursor
// made or edited by anyone else is refused before any of its values is read.
import { hash } from 'node:crypto';
import { ValidationError } from './errors.ts';
import type { SecretBox } from './secret-box.ts';

/** What signs and checks cursors: the service context's secret box. */
export type CursorKeys = Pick<SecretBox, 'tag' | 'checkTag'>;

/** The MAC purpose of cursors: a tag made for anything else is not a cursor's. */
const CURSOR_PURPOSE = 'pagination-cursor';

export interface PageRequest {
  page: number;
  size: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  data: T[];
  pagination: {
    page: number;
    size: number;
    totalElements: number;
    totalPages: number;
    /** The next page's cursor; null on the last page. */
    nextCursor: string | null;
    /** Sync orders only: where to resume later (after the last item answered), even on the last page. */
    resumeCursor?: string | null;
  };
}

/** The SQL type of a sort key, so a cursor's values are checked and cast back exactly. */
export type SortKeyType = 'timestamptz' | 'uuid' | 'real' | 'boolean' | 'bigint' | 'xid8';
export type SortKeyValue = string | number | boolean;

/** How a list is ordered: its sort keys (all in one direction, the last one unique). */
export interface Ordering {
  name: string;
  keys: readonly SortKeyType[];
  direction: 'asc' | 'desc';
  /** An ascending sync order (updatedSince, the event feed): answers resumeCursor too. */
  sync?: boolean;
}

/** Newest first: (createdAt, id) descending, the contract's default order. */
export const NEWEST_FIRST: Ordering = { name: 'newest', keys: ['timestamptz', 'uuid'], direction: 'desc' };
/** Sync order: (updatedAt, id) ascending, used whenever `updatedSince` is given. */
export const CHANGED_SINCE: Ordering = { name: 'changed', keys: ['timestamptz', 'uuid'], direction: 'asc', sync: true };

/**
 * A newest-first slice of one source of a list merged from several (the activity timeline): at most
 * `limit` rows, ordered by (time, id) descending, strictly before `before` when given.
 */
export interface NewestFirstWindow {
  before?: { at: Date; id: string } | undefined;
  limit: number;
}

/** Where a page starts, as a repo needs it: fetch `limit` rows (one more than the page) at `offset` after `after`. */
export interface PagePosition {
  page: number;
  size: number;
  limit: number;
  offset: number;
  after: SortKeyValue[] | undefined;
  ordering: Ordering;
  scope: string;
  cursor: string | undefined;
  /** Signs the cursors of the answer. */
  keys: CursorKeys;
}

interface CursorBody {
  /** Scope fingerprint: list, ordering, company and filters. */
  s: string;
  /** Page index the cursor leads to. */
  p: number;
  /** Sort keys of the last row seen. */
  k: SortKeyValue[];
}

const MAX_CURSOR_LENGTH = 1024;
/** The highest page index a cursor may lead to: the `page` parameter's own maximum. */
const MAX_CURSOR_PAGE = 9_000_000_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Years 0001 to 9999: JavaScript accepts a year 0000, PostgreSQL has none (an error, not a row).
const ISO_TIMESTAMP = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function digest(text: string, length: number): string {
  return hash('sha256', text, 'base64url').slice(0, length);
}

/** The fingerprint a cursor must carry to be accepted by this list with these filters. */
export function cursorScope(list: string, ordering: Ordering, filter: unknown): string {
  return digest(JSON.stringify([list, ordering.name, filter ?? null]), 16);
}

export function encodeCursor(keys: CursorKeys, scope: string, page: number, keyValues: SortKeyValue[]): string {
  const body = Buffer.from(JSON.stringify({ s: scope, p: page, k: keyValues } satisfies CursorBody)).toString('base64url');
  return `${body}.${keys.tag(body, CURSOR_PURPOSE)}`;
}

const refuse = (message: string) => ValidationError.field('cursor', message);

const MAX_BIGINT = 2n ** 63n - 1n;
const MAX_XID8 = 2n ** 64n - 1n;

/**
 * Whether a cursor's key is a value this server could have written for that type, and one the
 * database accepts as such (an out-of-range number or an impossible date would fail in SQL: a 500).
 */
function validKey(value: unknown, type: SortKeyType): boolean {
  switch (type) {
    case 'timestamptz':
      // Exactly as toISOString writes it: also refuses 2024-02-31 and years past 9999.
      return typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'real':
      // Within float4 (ranks are small non-negative numbers): no overflow or underflow in the cast.
      return typeof value === 'number' && Number.isFinite(value) && (value === 0 || (Math.abs(value) >= 1e-37 && Math.abs(value) <= 3.4e38));
    case 'boolean':
      return typeof value === 'boolean';
    case 'bigint':
    case 'xid8':
      return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) <= (type === 'bigint' ? MAX_BIGINT : MAX_XID8);
  }
}

export function decodeCursor(keys: CursorKeys, cursor: string, scope: string, ordering: Ordering): CursorBody {
  const [body, check, extra] = cursor.split('.');
  if (cursor.length > MAX_CURSOR_LENGTH || !body || !check || extra !== undefined || !keys.checkTag(body, check, CURSOR_PURPOSE)) {
    throw refuse('is not a cursor this server made (pass nextCursor exactly as answered)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw refuse('is not a cursor this server made (pass nextCursor exactly as answered)');
  }
  const candidate = parsed as Partial<CursorBody> | null;
  if (
    !candidate ||
    typeof candidate.s !== 'string' ||
    !Number.isSafeInteger(candidate.p) ||
    (candidate.p as number) < 0 ||
    (candidate.p as number) > MAX_CURSOR_PAGE ||
    !Array.isArray(candidate.k) ||
    candidate.k.length !== ordering.keys.length ||
    !candidate.k.every((value, index) => validKey(value, ordering.keys[index]))
  ) {
    throw refuse('is not a cursor this server made (pass nextCursor exactly as answered)');
  }
  if (candidate.s !== scope) {
    throw refuse('belongs to another list or other filters: repeat the filters of the request that answered it');
  }
  return candidate as CursorBody;
}

/**
 * Where the requested page starts. `keys` sign and check cursors (the context's secret box); `list`
 * names the list, `filter` holds everything that selects its rows (the company included), so a
 * cursor is refused anywhere else.
 */
export function startPage(keys: CursorKeys, request: PageRequest, list: string, ordering: Ordering, filter: unknown): PagePosition {
  const scope = cursorScope(list, ordering, filter);
  const base = { size: request.size, limit: request.size + 1, ordering, scope, cursor: request.cursor, keys };
  if (request.cursor === undefined) {
    return { ...base, page: request.page, offset: request.page * request.size, after: undefined };
  }
  const cursor = decodeCursor(keys, request.cursor, scope, ordering);
  return { ...base, page: cursor.p, offset: 0, after: cursor.k };
}

function keyValue(value: Date | string | number | boolean | bigint): SortKeyValue {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * Cuts the rows a repo fetched (`limit`, one more than the page) to the page and makes its cursors
 * from the last row's sort keys (`keysOf`, in the ordering's key order).
 */
export function endPage<R>(
  rows: R[],
  position: PagePosition,
  keysOf: (row: R) => Array<Date | string | number | boolean | bigint>,
): { rows: R[]; nextCursor: string | null; resumeCursor?: string | null } {
  const page = rows.slice(0, position.size);
  const last = page.at(-1);
  const cursorAfterLast = last ? encodeCursor(position.keys, position.scope, position.page + 1, keysOf(last).map(keyValue)) : null;
  const nextCursor = rows.length > position.size ? cursorAfterLast : null;
  if (!position.ordering.sync) return { rows: page, nextCursor };
  return { rows: page, nextCursor, resumeCursor: cursorAfterLast ?? position.cursor ?? null };
}

export function toPage<T>(
  data: T[],
  totalElements: number,
  request: PageRequest | PagePosition,
  cursors: { nextCursor: string | null; resumeCursor?: string | null } = { nextCursor: null },
): Page<T> {
  return {
    data,
    pagination: {
      page: request.page,
      size: request.size,
      totalElements,
      totalPages: Math.ceil(totalElements / request.size),
      ...cursors,
    },
  };
}
