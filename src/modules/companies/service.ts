import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { normalizeLanguageTag } from '../../shared/language-tags.ts';
import { sqlState } from '../../db/client.ts';
import { endPage, startPage, toPage, type Ordering, type Page, type PageRequest } from '../../shared/pagination.ts';
import {
  countCompanies,
  deleteRejectionReasonRow,
  findCompany,
  findMoveReason,
  findRejectionReason,
  insertCompanyWithReasons,
  insertRejectionReason,
  listAllRejectionReasonRows,
  listCompanyRows,
  listRejectionReasonRows,
  updateCompany,
  updateRejectionReasonRow,
  type CompanyRow,
  type RejectionReasonRow,
} from './repo.ts';
import {
  cleanReasonName,
  DEFAULT_REJECTION_REASONS,
  REASON_NAME_MAX,
  reasonKindOfStage,
  STAGE_OF_KIND,
  type RejectionReasonKind,
} from './rejection-reasons.ts';

export interface CompanyView {
  id: string;
  name: string;
  defaultLanguage: string;
  requiresListingReview: boolean;
  requiresRejectionReason: boolean;
  createdAt: string;
  updatedAt: string;
}

function toCompanyView(row: CompanyRow): CompanyView {
  return {
    id: row.id,
    name: row.name,
    defaultLanguage: row.defaultLanguage,
    requiresListingReview: row.requiresListingReview,
    requiresRejectionReason: row.requiresRejectionReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const LANGUAGE_PROBLEM = 'must be a BCP 47 language tag such as en or de-CH';


export async function createCompany(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  input: { name: string; defaultLanguage?: string | undefined },
): Promise<CompanyView> {
  const details: ErrorDetail[] = [];
  const name = input.name?.trim() ?? '';
  if (name.length < 1 || name.length > 200) details.push({ field: 'name', message: 'must be 1 to 200 characters' });
  const defaultLanguage = normalizeLanguageTag(input.defaultLanguage ?? 'en');
  if (!defaultLanguage) details.push({ field: 'defaultLanguage', message: LANGUAGE_PROBLEM });
  if (details.length > 0 || !defaultLanguage) throw new ValidationError(details);
  const now = ctx.clock.now();
  const row: CompanyRow = {
    id: randomUUID(),
    name,
    defaultLanguage,
    requiresListingReview: false,
    requiresRejectionReason: false,
    createdAt: now,
    updatedAt: now,
  };
  // The default reasons a millisecond apart, so the list (oldest first) shows them in their order.
  const reasons = DEFAULT_REJECTION_REASONS.map(({ kind, name: reasonName }, index): RejectionReasonRow => {
    const at = new Date(now.getTime() + index);
    return { id: randomUUID(), companyId: row.id, kind, name: reasonName, active: true, createdAt: at, updatedAt: at };
  });
  await insertCompanyWithReasons(ctx.db, row, reasons);
  return toCompanyView(row);
}

/** Whether any company exists yet (the demo seed runs only on an empty database). */
export async function hasCompanies(ctx: ServiceContext): Promise<boolean> {
  return (await countCompanies(ctx.db)) > 0;
}

/**
 * Every company, newest first, by page number (operators: the CLI's `company list`; tenants are
 * few and operators read them, so plain offset pages do).
 */
export async function listCompanies(
  ctx: Pick<ServiceContext, 'db'>,
  request: { page: number; size: number },
): Promise<{ data: CompanyView[]; pagination: { page: number; size: number; totalElements: number; totalPages: number } }> {
  const [rows, total] = await Promise.all([listCompanyRows(ctx.db, request.size, request.page * request.size), countCompanies(ctx.db)]);
  return {
    data: rows.map(toCompanyView),
    pagination: { page: request.page, size: request.size, totalElements: total, totalPages: Math.ceil(total / request.size) },
  };
}

export async function getCompany(ctx: ServiceContext, id: string): Promise<CompanyView> {
  const row = await findCompany(ctx.db, id);
  if (!row) throw new NotFoundError('Company');
  return toCompanyView(row);
}

/** Company settings an admin may change (name, listing review, default language, whether rejecting needs a reason). */
export async function updateCompanySettings(
  ctx: ServiceContext,
  id: string,
  patch: {
    name?: string | undefined;
    requiresListingReview?: boolean | undefined;
    defaultLanguage?: string | undefined;
    requiresRejectionReason?: boolean | undefined;
  },
): Promise<CompanyView> {
  if (patch.name !== undefined) {
    const name = patch.name.trim();
    if (name.length < 1 || name.length > 200) throw ValidationError.field('name', 'must be 1 to 200 characters');
    patch = { ...patch, name };
  }
  if (patch.defaultLanguage !== undefined) {
    const defaultLanguage = normalizeLanguageTag(patch.defaultLanguage);
    if (!defaultLanguage) throw ValidationError.field('defaultLanguage', LANGUAGE_PROBLEM);
    patch = { ...patch, defaultLanguage };
  }
  const row = await updateCompany(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  if (!row) throw new NotFoundError('Company');
  return toCompanyView(row);
}

// --- rejection reasons ------------------------------------------------------------------------------
// The company's list of reasons for a move into REJECTED or WITHDRAWN (docs/decisions.md,
// "Rejection reasons"). The applications module checks a move's reason here (reasonForMove) and
// shows the reasons' names in the history (rejectionReasonsOf); analytics names its counts with them.

export interface RejectionReasonView {
  id: string;
  name: string;
  kind: RejectionReasonKind;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A reason as a move carries it (the event, the history). */
export interface RejectionReasonRef {
  id: string;
  name: string;
  kind: RejectionReasonKind;
}

function toReasonView(row: RejectionReasonRow): RejectionReasonView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as RejectionReasonKind,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toReasonRef = (row: Pick<RejectionReasonRow, 'id' | 'name' | 'kind'>): RejectionReasonRef => ({
  id: row.id,
  name: row.name,
  kind: row.kind as RejectionReasonKind,
});

/** Oldest first: (createdAt, id) ascending; the defaults in their seeded order, then the company's own. */
const OLDEST_FIRST: Ordering = { name: 'oldest', keys: ['timestamptz', 'uuid'], direction: 'asc' };

const NAME_PROBLEM = `must be 1 to ${REASON_NAME_MAX} characters, without control characters`;

function reasonName(name: string): string {
  const cleaned = cleanReasonName(name);
  if (cleaned === undefined) throw ValidationError.field('name', NAME_PROBLEM);
  return cleaned;
}

const nameTaken = (kind: string, name: string) =>
  new ConflictError(`A ${kind} reason named "${name}" already exists`, [{ field: 'name', message: 'is taken by another reason of this kind' }]);

export async function listRejectionReasons(
  ctx: ServiceContext,
  companyId: string,
  query: PageRequest & { kind?: RejectionReasonKind | undefined; active?: boolean | undefined },
): Promise<Page<RejectionReasonView>> {
  const filters = { kind: query.kind, active: query.active };
  const position = startPage(ctx.secrets, query, 'rejection-reasons', OLDEST_FIRST, { companyId, ...filters });
  const { rows: fetched, total } = await listRejectionReasonRows(ctx.db, companyId, filters, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  return toPage(rows.map(toReasonView), total, position, cursors);
}

export async function getRejectionReason(ctx: ServiceContext, companyId: string, id: string): Promise<RejectionReasonView> {
  const row = await findRejectionReason(ctx.db, companyId, id);
  if (!row) throw new NotFoundError('Rejection reason');
  return toReasonView(row);
}

export async function createRejectionReason(
  ctx: ServiceContext,
  companyId: string,
  input: { name: string; kind: RejectionReasonKind },
): Promise<RejectionReasonView> {
  const name = reasonName(input.name);
  const now = ctx.clock.now();
  const row: RejectionReasonRow = { id: randomUUID(), companyId, kind: input.kind, name, active: true, createdAt: now, updatedAt: now };
  if (!(await insertRejectionReason(ctx.db, row))) throw nameTaken(input.kind, name);
  return toReasonView(row);
}

/** Renames, archives (active false) or restores (active true) a reason; its kind never changes. */
export async function updateRejectionReason(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  input: { name?: string | undefined; active?: boolean | undefined },
): Promise<RejectionReasonView> {
  const patch = {
    ...(input.name === undefined ? {} : { name: reasonName(input.name) }),
    ...(input.active === undefined ? {} : { active: input.active }),
    updatedAt: ctx.clock.now(),
  };
  let row: RejectionReasonRow | undefined;
  try {
    row = await updateRejectionReasonRow(ctx.db, companyId, id, patch);
  } catch (error) {
    if (sqlState(error) !== '23505' || patch.name === undefined) throw error;
    const current = await findRejectionReason(ctx.db, companyId, id);
    throw nameTaken(current?.kind ?? 'rejection', patch.name);
  }
  if (!row) throw new NotFoundError('Rejection reason');
  return toReasonView(row);
}

/**
 * Deletes a reason no move ever gave; a reason some move gave is archived instead (active false),
 * so the history and the analytics keep its name. Answers which happened.
 */
export async function removeRejectionReason(ctx: ServiceContext, companyId: string, id: string): Promise<'deleted' | 'archived'> {
  const outcome = await deleteRejectionReasonRow(ctx.db, companyId, id);
  if (outcome === 'missing') throw new NotFoundError('Rejection reason');
  if (outcome === 'deleted') return 'deleted';
  if (!(await updateRejectionReasonRow(ctx.db, companyId, id, { active: false, updatedAt: ctx.clock.now() }))) {
    throw new NotFoundError('Rejection reason');
  }
  return 'archived';
}

/**
 * The reason a move into `stage` gives, checked: 422 (field reasonId) for a reason given to a stage
 * other than REJECTED or WITHDRAWN, one the company does not have (another company's included), one
 * of the other kind or an archived one, and for a move into REJECTED without one when the company
 * requires it. Reads the database only for a move into REJECTED or one that gives a reason.
 */
export async function reasonForMove(
  ctx: ServiceContext,
  companyId: string,
  stage: string,
  reasonId: string | undefined,
): Promise<RejectionReasonRef | null> {
  const kind = reasonKindOfStage(stage);
  if (!kind) {
    if (reasonId !== undefined) throw ValidationError.field('reasonId', 'only a move to REJECTED or WITHDRAWN takes a reason');
    return null;
  }
  if (reasonId === undefined && kind === 'WITHDRAWAL') return null;
  const found = await findMoveReason(ctx.db, companyId, reasonId ?? null);
  if (!found) throw new NotFoundError('Company');
  if (reasonId === undefined) {
    if (found.requiresRejectionReason) {
      throw ValidationError.field('reasonId', 'is required: this company asks for a reason when rejecting (GET /public/v1/rejection-reasons)');
    }
    return null;
  }
  const { reason } = found;
  if (!reason) throw ValidationError.field('reasonId', 'is not one of this company\'s rejection reasons');
  if (reason.kind !== kind) throw ValidationError.field('reasonId', `is a ${reason.kind} reason, for ${STAGE_OF_KIND[reason.kind as RejectionReasonKind]}, not ${stage}`);
  if (!reason.active) throw ValidationError.field('reasonId', 'is archived: pick an active reason');
  return toReasonRef(reason);
}

/** The company's reasons (archived included) by id: names for the history and the analytics. */
export async function rejectionReasonsOf(ctx: ServiceContext, companyId: string): Promise<Map<string, RejectionReasonRef>> {
  const rows = await listAllRejectionReasonRows(ctx.db, companyId);
  return new Map(rows.map((row) => [row.id, toReasonRef(row)]));
}
