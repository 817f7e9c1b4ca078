// A person's data on request (docs/decisions.md, "Personal data"): erasure and export of a
// candidate. The candidate row, their applications' texts, the stored events that carried them, the
// webhook delivery log and stored idempotent answers are each owned elsewhere; this module only
// composes those owners' functions, in one transaction for an erasure.
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import { findEventsMentioning, replaceEventData } from '../../infra/outbox/repo.ts';
import { scrubStoredResponses } from '../../infra/idempotency/repo.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { erasePipelineTexts, exportPipelineOf, type PipelineExport } from '../applications/service.ts';
import { eraseFilesOfCandidate, exportFilesOf, purgeObjects, type CandidateFileView } from '../documents/service.ts';
import { anonymizedCandidateFields, eraseCandidateRecord, getCandidate, type CandidateView } from '../candidates/service.ts';
import { exportDeliveriesMentioning, scrubDeliveriesMentioning, type DeliveryExport } from '../webhooks/service.ts';
import { eraseNotesOf, exportNotesOf, type NoteView } from '../notes/service.ts';
import { personOf, scrubStored, scrubValue } from './anonymize.ts';

/**
 * Erases the candidate, all in one transaction: the candidate's personal fields, their files (rows
 * deleted, objects marked and deleted right after the commit), the cover letters and move reasons
 * of their applications, the notes written on them (deleted, rows and all), every stored event and webhook delivery (body and
 * answers) that carried them, and stored idempotent answers; then records candidate.erased (ids
 * only). Applications stay, anonymized, for the pipeline's statistics. 404 for an unknown, already
 * erased or another company's candidate.
 */
export async function eraseCandidate(ctx: ServiceContext, companyId: string, id: string, actor?: AuditActor): Promise<void> {
  const now = ctx.clock.now();
  const fileKeys = await withTransaction(ctx, async (tx) => {
    const original = await eraseCandidateRecord(tx, companyId, id, now);
    // Their files' rows go now, their objects are marked for deletion in this same transaction.
    const keys = await eraseFilesOfCandidate(tx, companyId, id, now);
    const applicationIds = await erasePipelineTexts(tx, companyId, id, now);
    await eraseNotesOf(tx, companyId, id);
    const person = personOf(original, applicationIds, anonymizedCandidateFields(id));
    const mentions = [id, ...applicationIds];
    for (const event of await findEventsMentioning(tx.db, companyId, mentions)) {
      await replaceEventData(tx.db, event.id, scrubValue(event.data, person));
    }
    await scrubDeliveriesMentioning(tx, companyId, mentions, (text) => scrubStored(text, person));
    await scrubStoredResponses(tx.db, ctx.secrets, companyId, [...mentions, ...person.needles], (text) => scrubStored(text, person));
    await recordEvent(tx.db, { companyId, type: 'candidate.erased', data: { candidateId: id, applicationIds }, occurredAt: now });
    // Ids only, like the event: the audit log keeps no personal data of an erased candidate.
    await recordAudit(tx, { companyId, actor, action: 'candidate.erased', target: { id, label: null }, detail: { applicationIds }, occurredAt: now });
    return keys;
  });
  // The stored bytes after the commit (a store is no part of the transaction): what fails or a
  // crash leaves is deleted by the scheduled sweep from the marks committed above.
  await purgeObjects(ctx, fileKeys);
}

export interface CandidateExport {
  exportedAt: string;
  candidate: CandidateView;
  applications: PipelineExport[];
  notes: NoteView[];
  files: CandidateFileView[];
  events: Array<{ id: string; type: string; timestamp: string; data: unknown }>;
  webhookDeliveries: DeliveryExport[];
}

/** Everything stored about the candidate, as one JSON document. */
export async function exportCandidate(ctx: ServiceContext, companyId: string, id: string): Promise<CandidateExport> {
  const candidate = await getCandidate(ctx, companyId, id);
  const applications = await exportPipelineOf(ctx, companyId, id);
  const mentions = [id, ...applications.map((application) => application.id)];
  const events = await findEventsMentioning(ctx.db, companyId, mentions);
  return {
    exportedAt: ctx.clock.now().toISOString(),
    candidate,
    applications,
    notes: await exportNotesOf(ctx, companyId, id),
    files: await exportFilesOf(ctx, companyId, id),
    events: events.map((event) => ({ id: event.id, type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data })),
    webhookDeliveries: await exportDeliveriesMentioning(ctx, companyId, mentions),
  };
}
