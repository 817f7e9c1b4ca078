import { describe, expect, it } from 'vitest';
import { JOB_LISTING_STATUSES, type JobListingStatus } from '../reference-data/enums.ts';
import { computeExpiresAt, LISTING_ACTIONS, transition, type LifecycleContext, type ListingAction } from './lifecycle.ts';

type Expected = JobListingStatus | 'DELETED' | 'REFUSED';

const plain: LifecycleContext = { requiresReview: false, everPublished: false };

// The whole table, without review: one row per state, one column per action.
const TABLE: Record<JobListingStatus, Record<ListingAction, Expected>> = {
  DRAFT: {
    publish: 'ACTIVE', approve: 'REFUSED', reject: 'REFUSED', close: 'REFUSED', expire: 'REFUSED',
    archive: 'ARCHIVED', delete: 'DELETED', update: 'DRAFT',
  },
  UNDER_REVIEW: {
    publish: 'REFUSED', approve: 'ACTIVE', reject: 'DRAFT', close: 'CLOSED', expire: 'REFUSED',
    archive: 'ARCHIVED', delete: 'REFUSED', update: 'UNDER_REVIEW',
  },
  ACTIVE: {
    publish: 'ACTIVE', approve: 'REFUSED', reject: 'REFUSED', close: 'CLOSED', expire: 'CLOSED',
    archive: 'ARCHIVED', delete: 'REFUSED', update: 'ACTIVE',
  },
  CLOSED: {
    publish: 'ACTIVE', approve: 'REFUSED', reject: 'REFUSED', close: 'REFUSED', expire: 'REFUSED',
    archive: 'ARCHIVED', delete: 'REFUSED', update: 'CLOSED',
  },
  ARCHIVED: {
    publish: 'REFUSED', approve: 'REFUSED', reject: 'REFUSED', close: 'REFUSED', expire: 'REFUSED',
    archive: 'REFUSED', delete: 'REFUSED', update: 'REFUSED',
  },
};

function outcome(status: JobListingStatus, action: ListingAction, context: LifecycleContext): Expected {
  const result = transition(status, action, context);
  return result.allowed ? result.next : 'REFUSED';
}

describe('job listing lifecycle', () => {
  for (const status of JOB_LISTING_STATUSES) {
    for (const action of LISTING_ACTIONS) {
      it(`${status} --${action}--> ${TABLE[status][action]}`, () => {
        expect(outcome(status, action, plain)).toBe(TABLE[status][action]);
        expect(outcome(status, action, { ...plain, everPublished: true })).toBe(TABLE[status][action]);
      });
    }
  }

  it('names the current status when it refuses', () => {
    const result = transition('ARCHIVED', 'publish', plain);
    expect(result).toEqual({ allowed: false, reason: 'Cannot publish a job listing in status ARCHIVED' });
  });

  it('marks publishing an ACTIVE listing as no change, and real moves as changes', () => {
    expect(transition('ACTIVE', 'publish', plain)).toEqual({ allowed: true, next: 'ACTIVE', changed: false });
    expect(transition('DRAFT', 'publish', plain)).toEqual({ allowed: true, next: 'ACTIVE', changed: true });
    expect(transition('DRAFT', 'update', plain)).toEqual({ allowed: true, next: 'DRAFT', changed: false });
  });

  describe('when the company requires listing review', () => {
    const review: LifecycleContext = { requiresReview: true, everPublished: false };
    it('sends a DRAFT to UNDER_REVIEW', () => {
      expect(outcome('DRAFT', 'publish', review)).toBe('UNDER_REVIEW');
    });
    it('reopens a CLOSED listing that was approved before, and reviews one that never was', () => {
      expect(outcome('CLOSED', 'publish', { ...review, everPublished: true })).toBe('ACTIVE');
      expect(outcome('CLOSED', 'publish', review)).toBe('UNDER_REVIEW');
    });
    it('changes nothing else', () => {
      for (const status of JOB_LISTING_STATUSES) {
        for (const action of LISTING_ACTIONS) {
          if (action === 'publish' && (status === 'DRAFT' || status === 'CLOSED')) continue;
          expect(outcome(status, action, review)).toBe(TABLE[status][action]);
        }
      }
    });
  });
});

describe('computeExpiresAt', () => {
  it('is the end of the end date (UTC) when one is set', () => {
    expect(computeExpiresAt('2030-03-31', new Date('2030-01-01T10:00:00Z'))?.toISOString()).toBe('2030-03-31T23:59:59.999Z');
    expect(computeExpiresAt('2030-03-31', null)?.toISOString()).toBe('2030-03-31T23:59:59.999Z');
  });
  it('is 60 days after activation without an end date', () => {
    expect(computeExpiresAt(null, new Date('2030-01-01T10:00:00Z'))?.toISOString()).toBe('2030-03-02T10:00:00.000Z');
  });
  it('is unknown for a draft without an end date', () => {
    expect(computeExpiresAt(null, null)).toBeNull();
  });
});
