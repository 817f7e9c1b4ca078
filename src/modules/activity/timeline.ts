// The activity timeline's order and paging, pure (src/modules/activity/README.md). The timeline is
// merged from several sources, each read newest first by its own (time, id); across sources an
// entry's place is (occurredAt, rank of its source, source id), all descending, and a cursor names
// the last entry answered by those three. Each source is then asked only for what follows that
// entry in the merged order (sourceWindow), so a page is exact however many entries share a time.
import { createHash } from 'node:crypto';
import type { NewestFirstWindow, Ordering } from '../../shared/pagination.ts';

export const ACTIVITY_ORDER: Ordering = { name: 'activity', keys: ['timestamptz', 'bigint', 'uuid'], direction: 'desc' };

/** An entry's place in the timeline. */
export interface TimelineKey {
  at: Date;
  /** Its source's rank: of two entries of the same time, the higher rank comes first. */
  rank: number;
  /** The id of the source row (or event) it was read from. */
  id: string;
}

const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const MIN_UUID = '00000000-0000-0000-0000-000000000000';

/** The cursor's sort keys (from endPage) back as a key. */
export function keyOfCursor(after: ReadonlyArray<string | number | boolean>): TimelineKey {
  return { at: new Date(String(after[0])), rank: Number(after[1]), id: String(after[2]) };
}

/**
 * What a source of this rank must answer to continue after `last`: its rows before (at, id) in its
 * own order. A lower rank's rows of the same time still follow the cursor's entry (all of them), a
 * higher rank's came before it (none of them), the same rank's follow it by id.
 */
export function sourceWindow(rank: number, last: TimelineKey | undefined, limit: number): NewestFirstWindow {
  if (!last) return { limit };
  const id = rank < last.rank ? MAX_UUID : rank > last.rank ? MIN_UUID : last.id;
  return { before: { at: last.at, id }, limit };
}

/** Compares two entries in timeline order: negative when `a` comes first (newer). */
export function compareKeys(a: TimelineKey, b: TimelineKey): number {
  const time = b.at.getTime() - a.at.getTime();
  if (time !== 0) return time;
  if (a.rank !== b.rank) return b.rank - a.rank;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Whether an entry follows `last` in timeline order (for a source read in memory). */
export function follows(key: TimelineKey, last: TimelineKey | undefined): boolean {
  return !last || compareKeys(last, key) < 0;
}

/**
 * A stable id for an entry that is not a row of its own (a note's edit or deletion: the note's
 * row, seen at another time): a name-based UUID (version 8) of the happening and the row's id.
 */
export function derivedId(happening: string, id: string): string {
  const hex = createHash('sha256').update(`${happening}:${id}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
