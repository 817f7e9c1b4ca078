import { describe, expect, it } from 'vitest';
import { poolFor } from './postgres-pools.ts';

describe('poolFor', () => {
  it('sends a plain read to the read pool, or to the planned pool when it asks to be planned once', () => {
    expect(poolFor('select id from job_listings where company_id = $1')).toBe('reads');
    expect(poolFor('  SELECT 1')).toBe('reads');
    expect(poolFor('with page as (select id from candidates) select * from page')).toBe('reads');
    expect(poolFor('select id from job_listings', { planOnce: true })).toBe('planned');
    // Words that only contain a writing word are no writing word.
    expect(poolFor('select updated_at, inserted, deleted_at from job_listings')).toBe('reads');
  });

  it('sends every write, row lock and anything else to the write pool, planOnce or not', () => {
    for (const text of [
      'insert into events (type) values ($1)',
      'update applications set status = $2 where id = $1',
      'delete from idempotency_keys where expires_at < now()',
      'with moved as (update applications set status = $2 returning id) select id from moved',
      'with gone as (delete from events returning seq) select count(*) from gone',
      'merge into kept_counts using changes on true when matched then update set n = n + 1',
      'select id from applications where id = $1 for update',
      'select id from applications where id = $1 for no key update',
      'select id from applications where id = $1 for share',
      'select id from applications where id = $1 for key share',
      'begin',
      'set statement_timeout = 0',
      'listen company_changes',
    ]) {
      expect(poolFor(text), text).toBe('writes');
      expect(poolFor(text, { planOnce: true }), text).toBe('writes');
    }
  });
});
