import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { FileStore } from '../../adapters/file-store/file-store.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
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
  findBoardOfCompany,
  findEnabledBoard,
  upsertBoard,
  type CompanyBoardRow,
  type CompanyRow,
  type RejectionReasonRow,
} from './repo.ts';
import {
  cleanIntro,
  LOGO_FORMATS,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  normalizeAccentColor,
  normalizePrivacyPolicyUrl,
  PRIVACY_URL_MAX,
  SLUG_MAX,
  slugProblem,
} from './board-rules.ts';
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

/** The company's settings as /settings/company answers them: the company's fields and its job board's. */
export interface CompanySettingsView extends CompanyView {
  board: BoardSettingsView;
}

export async function getCompanySettings(ctx: ServiceContext, id: string): Promise<CompanySettingsView> {
  const company = await getCompany(ctx, id);
  return { ...company, board: await getBoardSettings(ctx, id) };
}

export interface CompanySettingsPatch {
  name?: string | undefined;
  requiresListingReview?: boolean | undefined;
  defaultLanguage?: string | undefined;
  requiresRejectionReason?: boolean | undefined;
  /** The job board's settings, checked and written as updateBoardSettings does (details named `board.<field>`). */
  board?: BoardSettingsPatch | undefined;
}

/**
 * Company settings an admin may change (name, listing review, default language, whether rejecting
 * needs a reason) and, given `board`, the job board's settings with them: every failing field in
 * one 422, then one transaction, so a board refused (409 slug taken, 422 on without a slug) leaves
 * the company's fields as they were.
 */
export async function updateCompanySettings(ctx: ServiceContext, id: string, patch: CompanySettingsPatch): Promise<CompanySettingsView> {
  const details: ErrorDetail[] = [];
  const company: Partial<CompanyRow> = {};
  if (patch.name !== undefined) {
    const name = patch.name.trim();
    if (name.length < 1 || name.length > 200) details.push({ field: 'name', message: 'must be 1 to 200 characters' });
    else company.name = name;
  }
  if (patch.defaultLanguage !== undefined) {
    const defaultLanguage = normalizeLanguageTag(patch.defaultLanguage);
    if (!defaultLanguage) details.push({ field: 'defaultLanguage', message: LANGUAGE_PROBLEM });
    else company.defaultLanguage = defaultLanguage;
  }
  if (patch.requiresListingReview !== undefined) company.requiresListingReview = patch.requiresListingReview;
  if (patch.requiresRejectionReason !== undefined) company.requiresRejectionReason = patch.requiresRejectionReason;
  const board = patch.board === undefined ? undefined : boardChanges(patch.board, BOARD_FIELD_PREFIX);
  if (board) details.push(...board.details);
  if (details.length > 0) throw new ValidationError(details);
  return withTransaction(ctx, async (tx) => {
    const row = Object.keys(company).length > 0 ? await updateCompany(tx.db, id, { ...company, updatedAt: tx.clock.now() }) : await findCompany(tx.db, id);
    if (!row) throw new NotFoundError('Company');
    const boardView = board && patch.board ? await writeBoard(tx, id, board.next, patch.board, BOARD_FIELD_PREFIX) : await getBoardSettings(tx, id);
    return { ...toCompanyView(row), board: boardView };
  });
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

// --- public job board -------------------------------------------------------------------------------
// The company's board settings (docs/decisions.md, "Public job board"): written here by an ADMIN
// (/settings/company/board), read by the boards module (findEnabledBoardBySlug) for the public
// board API and the careers pages.

/** The board settings as the company's admins see them. */
export interface BoardSettingsView {
  slug: string | null;
  enabled: boolean;
  publicName: string | null;
  intro: Record<string, string>;
  /** Where the logo is served publicly (null: none, or no slug yet). */
  logoUrl: string | null;
  accentColor: string | null;
  privacyPolicyUrl: string | null;
  showSalary: boolean;
  updatedAt: string | null;
}

/** An enabled board, as the boards module reads it. */
export interface EnabledBoard {
  companyId: string;
  slug: string;
  /** The public name, else the company's name. */
  name: string;
  defaultLanguage: string;
  intro: Record<string, string>;
  logoUrl: string | null;
  logoKey: string | null;
  logoContentType: string | null;
  accentColor: string | null;
  privacyPolicyUrl: string | null;
  showSalary: boolean;
  updatedAt: Date;
}

const NO_BOARD = { slug: null, enabled: false, publicName: null, intro: {}, logoUrl: null, accentColor: null, privacyPolicyUrl: null, showSalary: false, updatedAt: null };

/** The logo's public URL; the version (a digest of its key) changes with every new logo, so it caches for long. */
function logoUrlOf(row: Pick<CompanyBoardRow, 'slug' | 'logoKey'>): string | null {
  if (!row.slug || !row.logoKey) return null;
  return `/boards/${row.slug}/logo?v=${createHash('sha256').update(row.logoKey).digest('base64url').slice(0, 12)}`;
}

function toBoardSettingsView(row: CompanyBoardRow | undefined): BoardSettingsView {
  if (!row) return { ...NO_BOARD, intro: {} };
  return {
    slug: row.slug,
    enabled: row.enabled,
    publicName: row.publicName,
    intro: row.intro,
    logoUrl: logoUrlOf(row),
    accentColor: row.accentColor,
    privacyPolicyUrl: row.privacyPolicyUrl,
    showSalary: row.showSalary,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getBoardSettings(ctx: ServiceContext, companyId: string): Promise<BoardSettingsView> {
  return toBoardSettingsView(await findBoardOfCompany(ctx.db, companyId));
}

export interface BoardSettingsPatch {
  slug?: string | null | undefined;
  enabled?: boolean | undefined;
  publicName?: string | null | undefined;
  intro?: Record<string, string> | undefined;
  accentColor?: string | null | undefined;
  privacyPolicyUrl?: string | null | undefined;
  showSalary?: boolean | undefined;
}

const emptyBoard = (companyId: string, now: Date): CompanyBoardRow => ({
  companyId,
  slug: null,
  enabled: false,
  publicName: null,
  intro: {},
  logoKey: null,
  logoContentType: null,
  accentColor: null,
  privacyPolicyUrl: null,
  showSalary: false,
  updatedAt: now,
});

/** How /settings/company names the board's fields in an error's details. */
const BOARD_FIELD_PREFIX = 'board.';

/** A board patch checked: the columns it changes, or the failing fields (named `<prefix><field>`). */
function boardChanges(patch: BoardSettingsPatch, prefix = ''): { next: Partial<CompanyBoardRow>; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const next: Partial<CompanyBoardRow> = {};
  const fail = (field: string, message: string) => details.push({ field: `${prefix}${field}`, message });
  if (patch.slug !== undefined) {
    const slug = patch.slug === null ? null : patch.slug.trim();
    const problem = slug === null ? undefined : slugProblem(slug);
    if (problem) fail('slug', problem);
    else next.slug = slug;
  }
  if (patch.publicName !== undefined) {
    const name = patch.publicName === null ? null : patch.publicName.trim() || null;
    if (name !== null && name.length > 200) fail('publicName', 'must be at most 200 characters');
    else next.publicName = name;
  }
  if (patch.intro !== undefined) {
    const cleaned = cleanIntro(patch.intro);
    if ('field' in cleaned) fail(cleaned.field, cleaned.message);
    else next.intro = cleaned.value;
  }
  if (patch.accentColor !== undefined) {
    const color = patch.accentColor === null ? null : normalizeAccentColor(patch.accentColor);
    if (color === undefined) fail('accentColor', 'must be a colour written #rrggbb');
    else next.accentColor = color;
  }
  if (patch.privacyPolicyUrl !== undefined) {
    const url = patch.privacyPolicyUrl === null ? null : normalizePrivacyPolicyUrl(patch.privacyPolicyUrl);
    if (url === undefined) fail('privacyPolicyUrl', `must be an https URL of at most ${PRIVACY_URL_MAX} characters`);
    else next.privacyPolicyUrl = url;
  }
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.showSalary !== undefined) next.showSalary = patch.showSalary;
  return { next, details };
}

/**
 * Writes checked board changes inside the caller's transaction (`tx`, the company already found):
 * 422 for a board on without a slug, 409 for a slug another company has.
 */
async function writeBoard(
  tx: ServiceContext,
  companyId: string,
  next: Partial<CompanyBoardRow>,
  patch: BoardSettingsPatch,
  prefix = '',
): Promise<BoardSettingsView> {
  const now = tx.clock.now();
  const current = (await findBoardOfCompany(tx.db, companyId)) ?? emptyBoard(companyId, now);
  const row: CompanyBoardRow = { ...current, ...next, updatedAt: now };
  if (row.enabled && !row.slug) {
    throw ValidationError.field(`${prefix}${patch.enabled ? 'enabled' : 'slug'}`, 'a board can be on only with a slug: set slug first (or in the same request)');
  }
  try {
    return toBoardSettingsView(await upsertBoard(tx.db, row));
  } catch (error) {
    if (sqlState(error) === '23505') {
      throw new ConflictError(`The board address "${row.slug}" is taken`, [{ field: `${prefix}slug`, message: 'is taken by another company' }]);
    }
    throw error;
  }
}

/**
 * Changes the board settings (fields not given stay). 422 for a bad slug (format, reserved word),
 * accent colour, privacy link or intro, and for a board turned on without a slug; 409 for a slug
 * another company has. (PATCH /settings/company's `board` runs the same checks and write.)
 */
export async function updateBoardSettings(ctx: ServiceContext, companyId: string, patch: BoardSettingsPatch): Promise<BoardSettingsView> {
  const { next, details } = boardChanges(patch);
  if (details.length > 0) throw new ValidationError(details);
  return withTransaction(ctx, async (tx) => {
    if (!(await findCompany(tx.db, companyId))) throw new NotFoundError('Company');
    return writeBoard(tx, companyId, next, patch);
  });
}

function boardStore(ctx: ServiceContext): FileStore {
  if (!ctx.fileStore) throw new Error('no file store configured');
  return ctx.fileStore;
}

/**
 * Stores a new logo (PNG, JPEG or WEBP, decided from the bytes with file-type: 415 otherwise, SVG
 * included; 413 past LOGO_MAX_BYTES; 422 when empty) and removes the previous one.
 */
export async function setBoardLogo(ctx: ServiceContext, companyId: string, bytes: AsyncIterable<Uint8Array>): Promise<BoardSettingsView> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bytes) {
    size += chunk.byteLength;
    if (size > LOGO_MAX_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE', `The logo is larger than the limit of ${LOGO_MAX_BYTES} bytes`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  if (size === 0) throw ValidationError.field('logo', 'is empty');
  const body = Buffer.concat(chunks);
  const detected = await fileTypeFromBuffer(body);
  const contentType = detected ? LOGO_TYPES[detected.ext] : undefined;
  if (!contentType) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `The logo's content is not an accepted image (${LOGO_FORMATS}); the type is decided from the bytes`);
  }
  const store = boardStore(ctx);
  const key = `boards/${companyId}/logo-${randomUUID()}`;
  await store.put(key, Readable.from([body]), { contentType });
  let previous: string | null = null;
  let view: BoardSettingsView;
  try {
    view = await withTransaction(ctx, async (tx) => {
      if (!(await findCompany(tx.db, companyId))) throw new NotFoundError('Company');
      const now = tx.clock.now();
      const current = (await findBoardOfCompany(tx.db, companyId)) ?? emptyBoard(companyId, now);
      previous = current.logoKey;
      return toBoardSettingsView(await upsertBoard(tx.db, { ...current, logoKey: key, logoContentType: contentType, updatedAt: now }));
    });
  } catch (error) {
    await store.delete(key);
    throw error;
  }
  if (previous) await store.delete(previous);
  return view;
}

export async function removeBoardLogo(ctx: ServiceContext, companyId: string): Promise<BoardSettingsView> {
  const current = await findBoardOfCompany(ctx.db, companyId);
  if (!current?.logoKey) return toBoardSettingsView(current);
  const view = toBoardSettingsView(await upsertBoard(ctx.db, { ...current, logoKey: null, logoContentType: null, updatedAt: ctx.clock.now() }));
  await boardStore(ctx).delete(current.logoKey);
  return view;
}

/** The enabled board of this slug (the boards module's one read of the settings), or undefined: off or unknown. */
export async function findEnabledBoardBySlug(ctx: ServiceContext, slug: string): Promise<EnabledBoard | undefined> {
  if (slug.length > SLUG_MAX) return undefined;
  const row = await findEnabledBoard(ctx.db, slug);
  if (!row || !row.slug) return undefined;
  return {
    companyId: row.companyId,
    slug: row.slug,
    name: row.publicName ?? row.companyName,
    defaultLanguage: row.defaultLanguage,
    intro: row.intro,
    logoUrl: logoUrlOf(row),
    logoKey: row.logoKey,
    logoContentType: row.logoContentType,
    accentColor: row.accentColor,
    privacyPolicyUrl: row.privacyPolicyUrl,
    showSalary: row.showSalary,
    updatedAt: row.updatedAt,
  };
}

/** The logo's bytes of an enabled board, or undefined (none, or the board is off). */
export async function openBoardLogo(ctx: ServiceContext, slug: string): Promise<{ body: Readable; contentType: string; key: string } | undefined> {
  const board = await findEnabledBoardBySlug(ctx, slug);
  if (!board?.logoKey || !board.logoContentType) return undefined;
  const body = await boardStore(ctx).get(board.logoKey);
  return body ? { body, contentType: board.logoContentType, key: board.logoKey } : undefined;
}
