// What a company's people may do, by role, whatever the client they act through (the dashboard or
// an application they let act for them). An ADMIN: everything. A MEMBER (a recruiter): read
// everything a member sees, and work the pipeline: move applications between stages, submit an
// application (which adds its candidate) and write notes (routes that allow it name
// `peopleScope: 'applications:write'`, src/http/auth.ts). Creating, editing, publishing, closing or deleting
// listings, importing or erasing candidates, and webhooks (which send candidates' data to any
// address, and whose delivery log shows it) are an ADMIN's. /settings keeps its own per-route rule.
import { ALL_SCOPES, type Scope } from '../api-keys/scopes.ts';
import type { Role } from './service.ts';

const MEMBER_SCOPES: readonly Scope[] = ['jobs:read', 'applications:read', 'applications:write', 'candidates:read', 'analytics:read'];

/** The API scopes a person with this role may use (a token carries at most these). */
export function scopesOfRole(role: Role): readonly Scope[] {
  return role === 'ADMIN' ? ALL_SCOPES : MEMBER_SCOPES;
}
