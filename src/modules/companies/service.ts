import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { normalizeLanguageTag } from '../../shared/language-tags.ts';
import { countCompanies, findCompany, insertCompany, listCompanyRows, updateCompany, type CompanyRow } from './repo.ts';

export interface CompanyView {
  id: string;
  name: string;
  defaultLanguage: string;
  requiresListingReview: boolean;
  createdAt: string;
  updatedAt: string;
}

function toCompanyView(row: CompanyRow): CompanyView {
  return {
    id: row.id,
    name: row.name,
    defaultLanguage: row.defaultLanguage,
    requiresListingReview: row.requiresListingReview,
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
    createdAt: now,
    updatedAt: now,
  };
  await insertCompany(ctx.db, row);
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

/** Company settings an admin may change (name, listing review, default language). */
export async function updateCompanySettings(
  ctx: ServiceContext,
  id: string,
  patch: { name?: string | undefined; requiresListingReview?: boolean | undefined; defaultLanguage?: string | undefined },
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
