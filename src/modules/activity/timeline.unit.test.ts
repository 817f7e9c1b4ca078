import { describe, expect, it } from 'vitest';
import { compareKeys, derivedId, follows, keyOfCursor, sourceWindow, type TimelineKey } from './timeline.ts';

const at = new Date('2026-03-02T09:30:00.000Z');
const later = new Date('2026-03-02T09:30:00.001Z');
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the activity timeline order', () => {
  it('newest first, then the higher rank, then the larger id', () => {
    const keys: TimelineKey[] = [
      { at, rank: 1, id: id(2) },
      { at: later, rank: 0, id: id(1) },
      { at, rank: 3, id: id(1) },
      { at, rank: 1, id: id(3) },
    ];
    expect([...keys].sort(compareKeys)).toEqual([keys[1], keys[2], keys[3], keys[0]]);
  });

  it('a source continues after the cursor: all of a lower rank at that time, none of a higher, by id for its own', () => {
    const last = { at, rank: 2, id: id(5) };
    expect(sourceWindow(1, last, 10).before).toEqual({ at, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' });
    expect(sourceWindow(3, last, 10).before).toEqual({ at, id: '00000000-0000-0000-0000-000000000000' });
    expect(sourceWindow(2, last, 10).before).toEqual({ at, id: id(5) });
    expect(sourceWindow(2, undefined, 7)).toEqual({ limit: 7 });
  });

  it('follows agrees with the order, and a cursor key comes back as it was', () => {
    const last = { at, rank: 2, id: id(5) };
    expect(follows({ at, rank: 1, id: id(9) }, last)).toBe(true);
    expect(follows({ at, rank: 2, id: id(4) }, last)).toBe(true);
    expect(follows({ at, rank: 2, id: id(5) }, last)).toBe(false);
    expect(follows({ at: later, rank: 0, id: id(1) }, last)).toBe(false);
    expect(keyOfCursor([at.toISOString(), '2', id(5)])).toEqual(last);
  });

  it('derived ids are stable UUIDs, different per happening', () => {
    const a = derivedId('note.updated', id(1));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedId('note.updated', id(1))).toBe(a);
    expect(derivedId('note.deleted', id(1))).not.toBe(a);
  });
});
