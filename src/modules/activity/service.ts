// The activity timeline of a candidate or of one application (README.md): merged, newest first, by
// cursor, from what the owners already keep (timeline.ts says how the merge pages). Durable sources:
// the candidate row, the stage history, the notes. Recorded events (retention: 30 days by default)
// for the rest: files added and removed, erasure.
import { countEventsNaming, listEventsNaming } from '../../infra/outbox/repo.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { endPage, startPage, toPage, type NewestFirstWindow, type Page, type PageRequest } from '../../shared/pagination.ts';
import { candidateOfApplication, stageMoveCount, stageMoves, type StageMovesOf } from '../applications/service.ts';
import { getCandidate } from '../candidates/service.ts';
import { describeActors, noteHappeningCounts, noteHappenings, type ActorRef, type ActorView, type NoteHappening, type NotesOf } from '../notes/service.ts';
import { ACTIVITY_ORDER, compareKeys, derivedId, follows, keyOfCursor, sourceWindow, type TimelineKey } from './timeline.ts';

/** Events of files (the documents module, when it records them); listed when they exist. */
export const FILE_EVENT_TYPES = ['candidate.file_added', 'candidate.file_removed'] as const;
const ERASED = 'candidate.erased';

/** Source ranks: of two entries of the same millisecond, the higher rank is listed first (newer). */
const RANK = { candidate: 0, stageMoves: 1, noteCreated: 2, noteEdited: 3, noteDeleted: 4, events: 5 } as const;

export interface ActivityItemView {
  id: string;
  type: string;
  occurredAt: string;
  actor: ActorView | null;
  applicationId: string | null;
  [detail: string]: unknown;
}

/** An entry before its actor is described. */
interface Entry {
  key: TimelineKey;
  actor: ActorRef;
  item: Omit<ActivityItemView, 'actor' | 'occurredAt'>;
}

interface Source {
  rank: number;
  read(window: NewestFirstWindow): Promise<Entry[]>;
  count(): Promise<number>;
}

const NOBODY: ActorRef = { userId: null, apiKeyId: null };

function stageMoveSource(ctx: ServiceContext, companyId: string, of: StageMovesOf): Source {
  const rank = RANK.stageMoves;
  return {
    rank,
    count: () => stageMoveCount(ctx, companyId, of),
    async read(window) {
      return (await stageMoves(ctx, companyId, of, window)).map((row) => ({
        key: { at: row.changedAt, rank, id: row.id },
        actor: { userId: row.changedByUserId, apiKeyId: row.changedByUserId ? null : row.apiKeyId },
        item:
          row.fromStatus === null
            ? {
                id: row.id,
                type: 'application.created',
                applicationId: row.applicationId,
                application: { id: row.applicationId, jobListingId: row.jobListingId, source: row.source, status: row.toStatus },
              }
            : {
                id: row.id,
                type: 'application.status_changed',
                applicationId: row.applicationId,
                stageMove: { fromStatus: row.fromStatus, toStatus: row.toStatus, reason: row.reason, jobListingId: row.jobListingId },
              },
      }));
    },
  };
}

const NOTE_TYPES: Record<NoteHappening, string> = { created: 'note.created', edited: 'note.updated', deleted: 'note.deleted' };

function noteSources(ctx: ServiceContext, companyId: string, of: NotesOf): Source[] {
  let counts: Promise<Record<NoteHappening, number>> | undefined;
  const ranks: Record<NoteHappening, number> = { created: RANK.noteCreated, edited: RANK.noteEdited, deleted: RANK.noteDeleted };
  return (['created', 'edited', 'deleted'] as const).map((happening) => ({
    rank: ranks[happening],
    async count() {
      counts ??= noteHappeningCounts(ctx, companyId, of);
      return (await counts)[happening];
    },
    async read(window) {
      return (await noteHappenings(ctx, companyId, of, happening, window)).map((row) => ({
        key: { at: row.at, rank: ranks[happening], id: row.noteId },
        actor: row.actor,
        item: {
          id: happening === 'created' ? row.noteId : derivedId(NOTE_TYPES[happening], row.noteId),
          type: NOTE_TYPES[happening],
          applicationId: row.applicationId,
          note: { id: row.noteId, body: row.body },
        },
      }));
    },
  }));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A file event's file (its `data.file`, or its data), and the application it is tied to. */
function fileOf(data: unknown): { file: Record<string, unknown>; applicationId: string | null } {
  const file = isObject(data) && isObject(data.file) ? data.file : isObject(data) ? data : {};
  const applicationId = typeof file.applicationId === 'string' && UUID.test(file.applicationId) ? file.applicationId : null;
  return { file, applicationId };
}

function eventSource(ctx: ServiceContext, companyId: string, types: readonly string[], mentioning: string): Source {
  const rank = RANK.events;
  const filter = { types, mentioning };
  return {
    rank,
    count: () => countEventsNaming(ctx.db, companyId, filter),
    async read(window) {
      return (await listEventsNaming(ctx.db, companyId, filter, window)).map((event) => {
        const key = { at: event.occurredAt, rank, id: event.id };
        if (event.type === ERASED) {
          const data = isObject(event.data) ? event.data : {};
          return {
            key,
            actor: NOBODY,
            item: { id: event.id, type: ERASED, applicationId: null, erasure: { candidateId: data.candidateId, applicationIds: data.applicationIds ?? [] } },
          };
        }
        const { file, applicationId } = fileOf(event.data);
        return { key, actor: NOBODY, item: { id: event.id, type: event.type, applicationId, file } };
      });
    },
  };
}

/** One entry read in memory (the candidate row). */
function singleSource(rank: number, entry: Omit<Entry, 'key'> & { at: Date; id: string }): Source {
  const key = { at: entry.at, rank, id: entry.id };
  return {
    rank,
    count: async () => 1,
    read: async (window) => (window.before && compareKeys(key, { ...window.before, rank }) <= 0 ? [] : [{ key, actor: entry.actor, item: entry.item }]),
  };
}

async function timelinePage(ctx: ServiceContext, companyId: string, list: string, scope: object, sources: Source[], request: PageRequest): Promise<Page<ActivityItemView>> {
  const position = startPage(ctx.secrets, request, list, ACTIVITY_ORDER, { companyId, ...scope });
  const last = position.after ? keyOfCursor(position.after) : undefined;
  const wanted = position.offset + position.limit;
  const [read, counts] = await Promise.all([
    Promise.all(sources.map((source) => source.read(sourceWindow(source.rank, last, wanted)))),
    Promise.all(sources.map((source) => source.count())),
  ]);
  const merged = read
    .flat()
    .filter((entry) => follows(entry.key, last))
    .sort((a, b) => compareKeys(a.key, b.key))
    .slice(position.offset, wanted);
  const { rows, ...cursors } = endPage(merged, position, (entry) => [entry.key.at, BigInt(entry.key.rank), entry.key.id]);
  const describe = await describeActors(ctx, companyId, rows.map((entry) => entry.actor));
  const items = rows.map((entry) => ({ ...entry.item, occurredAt: entry.key.at.toISOString(), actor: describe(entry.actor) }) as ActivityItemView);
  return toPage(items, counts.reduce((sum, count) => sum + count, 0), position, cursors);
}

/**
 * Everything that happened to the candidate, newest first: added (imported, applied...), applied
 * to listings, stage moves, notes written, edited, deleted, files added and removed. 404 for an
 * unknown or erased candidate (their applications' timelines keep the erasure).
 */
export async function candidateActivity(ctx: ServiceContext, companyId: string, candidateId: string, request: PageRequest): Promise<Page<ActivityItemView>> {
  const candidate = await getCandidate(ctx, companyId, candidateId);
  const sources = [
    singleSource(RANK.candidate, {
      at: new Date(candidate.createdAt),
      id: candidate.id,
      actor: NOBODY,
      item: { id: candidate.id, type: 'candidate.created', applicationId: null, candidate: { id: candidate.id, source: candidate.source } },
    }),
    stageMoveSource(ctx, companyId, { candidateId }),
    ...noteSources(ctx, companyId, { candidateId }),
    eventSource(ctx, companyId, FILE_EVENT_TYPES, candidateId),
  ];
  return timelinePage(ctx, companyId, 'candidate-activity', { candidateId }, sources, request);
}

/** What happened to one application: applied, stage moves, its notes, its files, its candidate's erasure. 404 for an unknown application. */
export async function applicationActivity(ctx: ServiceContext, companyId: string, applicationId: string, request: PageRequest): Promise<Page<ActivityItemView>> {
  if (!(await candidateOfApplication(ctx, companyId, applicationId))) throw new NotFoundError('Application');
  const sources = [
    stageMoveSource(ctx, companyId, { applicationId }),
    ...noteSources(ctx, companyId, { applicationId }),
    eventSource(ctx, companyId, [...FILE_EVENT_TYPES, ERASED], applicationId),
  ];
  return timelinePage(ctx, companyId, 'application-activity', { applicationId }, sources, request);
}
