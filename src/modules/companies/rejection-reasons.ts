// Rejection reasons (pure): their kinds, the stage each kind is for, and the list every company
// starts with. docs/decisions.md, "Rejection reasons".

/** REJECTION: the company turned the candidate down (a move into REJECTED). WITHDRAWAL: the candidate left (WITHDRAWN). */
export const REJECTION_REASON_KINDS = ['REJECTION', 'WITHDRAWAL'] as const;
export type RejectionReasonKind = (typeof REJECTION_REASON_KINDS)[number];

/** The pipeline stage a reason of each kind is given for (the applications module's stage names). */
export const STAGE_OF_KIND: Record<RejectionReasonKind, 'REJECTED' | 'WITHDRAWN'> = { REJECTION: 'REJECTED', WITHDRAWAL: 'WITHDRAWN' };

/** The kind of reason a move into this stage takes; undefined: the stage takes no reason. */
export function reasonKindOfStage(stage: string): RejectionReasonKind | undefined {
  if (stage === 'REJECTED') return 'REJECTION';
  if (stage === 'WITHDRAWN') return 'WITHDRAWAL';
  return undefined;
}

/**
 * Every new company's list, in this order (migration 0036 gave the companies of then the same).
 * Drawn from the defaults of Greenhouse ("we rejected them" / "they rejected us"), Lever and Ashby
 * (archive reasons): a short list a company edits, each with an "Other".
 */
export const DEFAULT_REJECTION_REASONS: ReadonlyArray<{ kind: RejectionReasonKind; name: string }> = [
  { kind: 'REJECTION', name: 'Not enough experience' },
  { kind: 'REJECTION', name: 'Skills mismatch' },
  { kind: 'REJECTION', name: 'Salary expectations' },
  { kind: 'REJECTION', name: 'Preferred another candidate' },
  { kind: 'REJECTION', name: 'Position filled' },
  { kind: 'REJECTION', name: 'Culture add not aligned' },
  { kind: 'REJECTION', name: 'Duplicate' },
  { kind: 'REJECTION', name: 'Other' },
  { kind: 'WITHDRAWAL', name: 'Accepted another offer' },
  { kind: 'WITHDRAWAL', name: 'Declined our offer' },
  { kind: 'WITHDRAWAL', name: 'Salary expectations' },
  { kind: 'WITHDRAWAL', name: 'No response' },
  { kind: 'WITHDRAWAL', name: 'Withdrew' },
  { kind: 'WITHDRAWAL', name: 'Other' },
];

export const REASON_NAME_MAX = 100;

/** A reason's name as kept: trimmed, 1 to 100 characters, no control characters; undefined if it is not one. */
export function cleanReasonName(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > REASON_NAME_MAX || /[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  return trimmed;
}
