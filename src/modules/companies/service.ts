import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { findCompany, insertCompany, updateCompany, type CompanyRow } from './repo.ts';

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

export async function createCompany(
  ctx: ServiceContext,
  input: { name: string; defaultLanguage?: string | undefined },
): Promise<CompanyView> {
  const name = input.name?.trim() ?? '';
  if (name.length < 1 || name.length > 200) throw ValidationError.field('name', 'must be 1 to 200 characters');
  const now = ctx.clock.now();
  const row: CompanyRow = {
    id: randomUUID(),
    name,
    defaultLanguage: input.defaultLanguage ?? 'en',
    requiresListingReview: false,
    createdAt: now,
    updatedAt: now,
  };
  await insertCompany(ctx.db, row);
  return toCompanyView(row);
}

export async function getCompany(ctx: ServiceContext, id: string): Promise<CompanyView> {
  const row = await findCompany(ctx.db, id);
  if (!row) throw new NotFoundError('Company');
  return toCompanyView(row);
}

/** Company settings an admin may change (listing review, default language). */
export async function updateCompanySettings(
  ctx: ServiceContext,
  id: string,
  patch: { requiresListingReview?: boolean; defaultLanguage?: string },
): Promise<CompanyView> {
  const row = await updateCompany(ctx.db, id, { ...patch, updatedAt: ctx.clock.now() });
  if (!row) throw new NotFoundError('Company');
  return toCompanyView(row);
}
