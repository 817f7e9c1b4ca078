// Everything that happened to the candidate, newest first (GET /candidates/{id}/activity), in words:
// applications, stage moves with who and why, notes, documents, the import, an erasure.
import { Button, Stack, Text, Timeline as MantineTimeline, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../../api';
import { Empty, ErrorMessage, formatDate, LoadState } from '../../ui';
import { useListingTitles, type Titles } from './listing-titles';
import { actorName } from './Notes';
import { STAGE_LABELS } from '../../labels';
import { kindLabel } from './words';

type Item = Schemas['ActivityItem'];
const PAGE = 50;

function fileWords(file: Record<string, unknown>): string {
  const kind = typeof file.kind === 'string' ? kindLabel(file.kind) : 'Document';
  return typeof file.fileName === 'string' ? `${kind} “${file.fileName}”` : kind;
}

/** The entry's title and its detail line, in words. */
function describe(item: Item, titles: Titles): { title: string; detail?: string } {
  const listing = (id: string) => titles.get(id) ?? 'a listing';
  switch (item.type) {
    case 'application.created':
      return { title: `Applied to ${listing(item.application.jobListingId)}` };
    case 'application.status_changed':
      return {
        title: `${STAGE_LABELS[item.stageMove.fromStatus]} → ${STAGE_LABELS[item.stageMove.toStatus]} (${listing(item.stageMove.jobListingId)})`,
        detail: item.stageMove.reason ?? undefined,
      };
    case 'note.created':
      return { title: 'Note written', detail: item.note.body ?? 'The note was deleted since.' };
    case 'note.updated':
      return { title: 'Note edited', detail: item.note.body ?? undefined };
    case 'note.deleted':
      return { title: 'Note deleted' };
    case 'candidate.created':
      return { title: item.candidate.source === 'IMPORTED' ? 'Imported' : 'Added as a candidate' };
    case 'candidate.erased':
      return { title: 'Personal data erased on request' };
    case 'candidate.file_added':
      return { title: `${fileWords(item.file)} added` };
    case 'candidate.file_removed':
      return { title: `${fileWords(item.file)} removed` };
  }
}

/** Who did it: the entry's actor, or for a document (whose entry records none) who uploaded it. */
function actorOf(item: Item): Schemas['Actor'] | null {
  if (item.actor) return item.actor;
  if (item.type === 'candidate.file_added' || item.type === 'candidate.file_removed') {
    const by = item.file.uploadedBy as Schemas['Actor'] | undefined;
    if (item.type === 'candidate.file_added' && by && typeof by.label === 'string') return by;
  }
  return null;
}

function listingIds(items: Item[]): string[] {
  return items.flatMap((item) =>
    item.type === 'application.created' ? [item.application.jobListingId] : item.type === 'application.status_changed' ? [item.stageMove.jobListingId] : [],
  );
}

/** `version` changes after anything done on the profile: the timeline is read again. */
export function Timeline({ candidateId, version }: { candidateId: string; version: number }) {
  const first = useLoad(() => call(api.GET('/public/v1/candidates/{id}/activity', { params: { path: { id: candidateId }, query: { size: PAGE } } })), [candidateId, version]);
  // Older pages, by cursor, under the first; a new first page starts the list again.
  const [older, setOlder] = useState<{ for: unknown; items: Item[]; next: string | null }>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>();
  const more = older?.for === first.data ? older : undefined;
  const items = [...(first.data?.data ?? []), ...(more?.items ?? [])];
  const next = more ? more.next : (first.data?.pagination.nextCursor ?? null);
  const titles = useListingTitles(listingIds(items));

  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    setError(undefined);
    try {
      const page = await call(api.GET('/public/v1/candidates/{id}/activity', { params: { path: { id: candidateId }, query: { size: PAGE, cursor: next } } }));
      setOlder({ for: first.data, items: [...(more?.items ?? []), ...page.data], next: page.pagination.nextCursor });
    } catch (caught) {
      setError(caught);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="profile-timeline">
      <Title order={4} size="h5" id="profile-timeline">
        Timeline
      </Title>
      <LoadState state={first} label="Loading the timeline">
        {() =>
          items.length === 0 ? (
            <Empty>Nothing has happened yet.</Empty>
          ) : (
            <MantineTimeline bulletSize={12} lineWidth={2} data-testid="profile-timeline">
              {items.map((item) => {
                const { title, detail } = describe(item, titles);
                const who = actorOf(item);
                return (
                  <MantineTimeline.Item key={item.id} title={title}>
                    {detail && (
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={4}>
                        {detail}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {formatDate(item.occurredAt)}
                      {who ? ` · by ${actorName(who)}` : ''}
                    </Text>
                  </MantineTimeline.Item>
                );
              })}
            </MantineTimeline>
          )
        }
      </LoadState>
      <ErrorMessage error={error} title="Could not load more" />
      {next && (
        <Button variant="subtle" size="xs" onClick={() => void loadMore()} loading={loadingMore}>
          Show older
        </Button>
      )}
    </Stack>
  );
}
