import { describe, expect, it } from 'vitest';
import { APPLICATION_STAGES, decideMove } from './stages.ts';

describe('decideMove', () => {
  it('moves any stage to any other', () => {
    for (const from of APPLICATION_STAGES) {
      for (const to of APPLICATION_STAGES) {
        if (from !== to) expect(decideMove(from, to, undefined)).toEqual({ kind: 'move', from, to });
      }
    }
  });

  it('changes nothing for the same stage', () => {
    expect(decideMove('OFFER', 'OFFER', undefined)).toEqual({ kind: 'unchanged' });
    expect(decideMove('OFFER', 'OFFER', 'OFFER')).toEqual({ kind: 'unchanged' });
  });

  it('checks expectedStatus first, even for the stage it is in', () => {
    expect(decideMove('INTERVIEW', 'OFFER', 'IN_REVIEW')).toEqual({ kind: 'conflict', current: 'INTERVIEW' });
    expect(decideMove('INTERVIEW', 'INTERVIEW', 'IN_REVIEW')).toEqual({ kind: 'conflict', current: 'INTERVIEW' });
    expect(decideMove('INTERVIEW', 'OFFER', 'INTERVIEW')).toEqual({ kind: 'move', from: 'INTERVIEW', to: 'OFFER' });
  });
});
