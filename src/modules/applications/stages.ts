// The pipeline stages of an application and what a move between them means. Any stage may be
// moved to any other (the contract's rule); these helpers only describe the moves.
import { CANDIDATE_SOURCES } from '../candidates/sources.ts';

export const APPLICATION_STAGES = ['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'REJECTED', 'WITHDRAWN'] as const;
export type ApplicationStage = (typeof APPLICATION_STAGES)[number];

/** The forward path of the funnel; REJECTED and WITHDRAWN leave it and have no rank. */
export const FUNNEL_STAGES = ['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED'] as const satisfies readonly ApplicationStage[];

/** A stage's place on the funnel (0 ACTIVE .. 4 HIRED), -1 off it: an application's furthest_stage is the highest it entered. */
export function funnelRank(stage: string): number {
  return (FUNNEL_STAGES as readonly string[]).indexOf(stage);
}

/** Where an application came from. EXTERNAL is the default of a submitted application. */
export const APPLICATION_SOURCES = CANDIDATE_SOURCES;
export type ApplicationSource = (typeof APPLICATION_SOURCES)[number];

export const INITIAL_STAGE: ApplicationStage = 'ACTIVE';

export type MoveDecision =
  | { kind: 'conflict'; current: ApplicationStage }
  | { kind: 'unchanged' }
  | { kind: 'move'; from: ApplicationStage; to: ApplicationStage };

/**
 * Decides a status update. The expectedStatus guard comes first: a caller who saw another stage
 * gets 409 even when asking for the stage the application is in now, because their view is stale.
 */
export function decideMove(
  current: ApplicationStage,
  requested: ApplicationStage,
  expected: ApplicationStage | undefined,
): MoveDecision {
  if (expected !== undefined && expected !== current) return { kind: 'conflict', current };
  if (requested === current) return { kind: 'unchanged' };
  return { kind: 'move', from: current, to: requested };
}
