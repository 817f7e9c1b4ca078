// The company's audit log: who did what and when, for its admins. Every action below is recorded by
// the service that performs it, with recordAudit in the action's own transaction, so an entry
// exists exactly when the action committed. Entries are append-only and outlive the outbox's 30 days.
// Who acted and what was acted on are kept with their labels as they were then (a key renamed or a
// member removed later does not rewrite history), so this module reads no other module's data.
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../shared/context.ts';
import { ValidationError } from '../../shared/errors.ts';
import { endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { insertAuditEntry, listAuditEntries } from './repo.ts';
import type { AuditEntryRow } from './tables.ts';

/** Every action the log records, with the type of what it acts on. */
export const AUDIT_ACTIONS = {
  'api_key.created': 'API_KEY',
  'api_key.renamed': 'API_KEY',
  'api_key.revoked': 'API_KEY',
  'member.invited': 'INVITATION',
  'member.invitation_cancelled': 'INVITATION',
  'member.removed': 'USER',
  'webhook.created': 'WEBHOOK_SUBSCRIPTION',
  'webhook.updated': 'WEBHOOK_SUBSCRIPTION',
  'webhook.secret_rotated': 'WEBHOOK_SUBSCRIPTION',
  'webhook.deleted': 'WEBHOOK_SUBSCRIPTION',
  'job_listing.published': 'JOB_LISTING',
  'candidate.erased': 'CANDIDATE',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetType = (typeof AUDIT_ACTIONS)[AuditAction];
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** Who acted: a person (their name, else e-mail), an API key (its label), or the service itself (an operator's CLI command, scheduled work). */
export interface AuditActor {
  type: 'USER' | 'API_KEY' | 'SYSTEM';
  id: string | null;
  label: string;
}

/** What an action without a caller (the CLI, scheduled work) is recorded as. */
export const SYSTEM_ACTOR: AuditActor = { type: 'SYSTEM', id: null, label: 'system' };

export interface AuditEntryView {
  id: string;
  occurredAt: string;
  actor: AuditActor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; label: string | null };
  detail: Record<string, unknown>;
}

/** Appends one entry, in the caller's transaction (`ctx`: the context withTransaction gives the change). */
export async function recordAudit(
  ctx: Pick<ServiceContext, 'db'>,
  entry: {
    companyId: string;
    actor: AuditActor | undefined;
    action: AuditAction;
    target: { id: string | null; label?: string | null | undefined };
    detail?: Record<string, unknown>;
    occurredAt: Date;
  },
): Promise<void> {
  const actor = entry.actor ?? SYSTEM_ACTOR;
  await insertAuditEntry(ctx.db, {
    id: randomUUID(),
    companyId: entry.companyId,
    occurredAt: entry.occurredAt,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label.slice(0, 300),
    action: entry.action,
    targetType: AUDIT_ACTIONS[entry.action],
    targetId: entry.target.id,
    targetLabel: entry.target.label?.slice(0, 300) ?? null,
    detail: entry.detail ?? {},
  });
}

export interface AuditLogQuery extends PageRequest {
  /** Comma-separated action names. */
  action?: string | undefined;
  actorId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function toView(row: AuditEntryRow): AuditEntryView {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType as AuditActor['type'], id: row.actorId, label: row.actorLabel },
    action: row.action as AuditAction,
    target: { type: row.targetType as AuditTargetType, id: row.targetId, label: row.targetLabel },
    detail: row.detail,
  };
}

/** The company's entries, newest first, filtered by action names, actor and a period [from, to). */
export async function listAuditLog(ctx: ServiceContext, companyId: string, query: AuditLogQuery): Promise<Page<AuditEntryView>> {
  const actions = query.action === undefined ? undefined : [...new Set(query.action.split(',').map((name) => name.trim()))];
  const unknown = actions?.filter((name) => !(name in AUDIT_ACTIONS)) ?? [];
  if (unknown.length > 0 || actions?.length === 0) {
    throw ValidationError.field('action', `unknown action ${JSON.stringify(unknown[0] ?? '')}; one or more of ${AUDIT_ACTION_NAMES.join(', ')}, comma-separated`);
  }
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && to && from >= to) throw ValidationError.field('to', 'must be after `from`');
  const filter = { actions: actions?.sort(), actorId: query.actorId, from, to };
  const position = startPage(ctx.secrets, query, 'audit-log', NEWEST_FIRST, { companyId, ...filter });
  const { rows: fetched, total } = await listAuditEntries(ctx.db, companyId, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.occurredAt, row.id]);
  return toPage(rows.map(toView), total, position, cursors);
}
