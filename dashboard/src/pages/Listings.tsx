import { Badge, Button, Drawer, Group, Menu, Select, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, Notice, ResourceTable, useAction } from '../components';
import { formatNumber, LISTING_STATUS_LABELS, options, plural, POSITION_TYPE_LABELS, STAGE_LABELS, STAGES, WORK_PLACE_LABELS } from '../labels';
import { useQueryParam } from '../router';
import { ErrorMessage, formatDate, Page, PageHeader, timeAgo, useIsAdmin, useSession } from '../ui';
import { ListingEditor } from './ListingEditor';
import { CareersLink, useCareersSlug } from './CareersSettings';

type Item = Schemas['JobListingListItem'];
type Status = Item['status'];
type WorkPlace = Item['workPlaceType'];
type PositionType = Item['positionType'];
type Counts = Schemas['JobListingApplicationCounts']['data'][number];

const STATUS_COLOR: Record<Status, string> = { DRAFT: 'gray', ACTIVE: 'green', UNDER_REVIEW: 'orange', CLOSED: 'red', ARCHIVED: 'gray' };
const PAGE_SIZE = 20;
/** The API's bound on `q`. */
const SEARCH_MAX = 200;
/** The API counts applications since the last visit up to this many per listing. */
const NEW_CAP = 1000;

export function StatusBadge({ status }: { status: Status }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="outline" styles={{ root: { flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
      {LISTING_STATUS_LABELS[status]}
    </Badge>
  );
}

type Move = 'publish' | 'close' | 'archive';

/** One of the labels' keys, or null (anything else in the address is left out). */
const oneOf = <T extends string>(labels: Record<T, string>, value: string | null): T | null => (value !== null && value in labels ? (value as T) : null);

/**
 * When this person last opened the Listings page, remembered in this browser per user: the
 * previous visit's time is read once as the page opens, and this visit's time written for the next.
 */
function useLastVisit(userId: string): string | null {
  const key = `dashboard.listings.lastVisit.${userId}`;
  const [previous] = useState(() => {
    try {
      const stored = localStorage.getItem(key);
      return stored && !Number.isNaN(Date.parse(stored)) ? stored : null;
    } catch {
      return null;
    }
  });
  useEffect(() => {
    try {
      localStorage.setItem(key, new Date().toISOString());
    } catch {
      // Storage refused (private mode): nothing is "new", the rest of the page works.
    }
  }, [key]);
  return previous;
}

/** The applicants of a listing per stage, in words ("Applied 3 · Interview 1"), and what is new since the last visit. */
function Applicants({ counts, since }: { counts: Counts | undefined; since: string | null }) {
  if (!counts) return <Text size="sm" c="dimmed">…</Text>;
  const stages = STAGES.filter((stage) => counts.applicationsByStage[stage] > 0);
  return (
    <div data-testid={`applicants-${counts.jobListingId}`}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{plural(counts.totalApplications, 'applicant')}</Text>
        {since && counts.newApplications !== null && counts.newApplications > 0 && (
          <Badge color="blue" variant="light" title={`Applied since your last visit (${formatDate(since)})`} data-testid={`new-${counts.jobListingId}`}>
            {counts.newApplications >= NEW_CAP ? `${formatNumber(NEW_CAP)}+` : formatNumber(counts.newApplications)} new
          </Badge>
        )}
      </Group>
      {stages.length > 0 && (
        <Text size="xs" c="dimmed">
          {stages.map((stage) => `${STAGE_LABELS[stage]} ${formatNumber(counts.applicationsByStage[stage])}`).join(' · ')}
        </Text>
      )}
    </div>
  );
}

export function ListingsPage() {
  const isAdmin = useIsAdmin();
  const careersSlug = useCareersSlug();
  const lastVisit = useLastVisit(useSession().userId);
  // Every filter lives in the address: a reload, a shared link and the back button keep them.
  const [view, setView] = useQueryParam('view');
  const [statusParam, setStatusParam] = useQueryParam('status');
  const [workPlaceParam, setWorkPlaceParam] = useQueryParam('workPlace');
  const [typeParam, setTypeParam] = useQueryParam('type');
  const [qParam, setQParam] = useQueryParam('q');
  const [pageParam, setPageParam] = useQueryParam('page');
  const tab = view === 'review' ? 'review' : 'all';
  const status = oneOf(LISTING_STATUS_LABELS, statusParam);
  const workPlace = oneOf<WorkPlace>(WORK_PLACE_LABELS, workPlaceParam);
  const positionType = oneOf<PositionType>(POSITION_TYPE_LABELS, typeParam);
  const page = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  const setPage = (next: number) => setPageParam(next > 1 ? String(next) : null, 'push');
  const q = qParam ?? '';
  const [search, setSearch] = useState(q);
  // The search typed lands in the address once typing pauses (from page 1); a search the address
  // changed (back, a link) shows in the field.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setSearch(q);
  }
  const writeSearch = useDebouncedCallback((typed: string) => {
    if (typed === q) return;
    setShownQ(typed);
    setPageParam(null);
    setQParam(typed || null);
  }, 300);
  const [editing, setEditing] = useState<string>();
  const [rejecting, setRejecting] = useState<Item>();
  const [reason, setReason] = useState('');
  const [deleting, setDeleting] = useState<Item>();
  const [notice, setNotice] = useState<string>();
  const acting = useAction();
  const review = tab === 'review';
  const effectiveStatus = review ? 'UNDER_REVIEW' : status;
  const listings = useLoad(
    () =>
      call(
        api.GET('/public/v1/job-listings', {
          params: {
            query: {
              page: page - 1,
              size: PAGE_SIZE,
              ...(effectiveStatus ? { status: [effectiveStatus] } : {}),
              ...(workPlace ? { workPlaceType: [workPlace] } : {}),
              ...(positionType ? { positionType: [positionType] } : {}),
              ...(q ? { q } : {}),
            },
          },
        }),
      ),
    [page, effectiveStatus, workPlace, positionType, q],
  );
  // The applicants of the listings shown, from the counts the API keeps per listing (one request a page).
  const shownIds = (listings.data?.data ?? []).map((item) => item.id);
  const counts = useLoad(
    async () =>
      shownIds.length === 0
        ? new Map<string, Counts>()
        : new Map(
            (
              await call(
                api.GET('/public/v1/analytics/job-listings', {
                  params: { query: { jobListingId: shownIds, ...(lastVisit ? { since: lastVisit } : {}) } },
                }),
              )
            ).data.map((item) => [item.jobListingId, item]),
          ),
    [shownIds.join(','), lastVisit],
  );
  // A new filter starts again at the first page; each change is a step the back button undoes.
  const filter = (set: (value: string | null, how?: 'push' | 'replace') => void) => (value: string | null) => {
    setPageParam(null);
    set(value, 'push');
  };

  /** Runs a change, then says what happened and reloads; throws what the API refused. */
  const perform = async (label: string, run: () => Promise<unknown>) => {
    setNotice(undefined);
    const result = (await run()) as { status?: Status } | undefined;
    setNotice(result?.status ? `${label}: now ${LISTING_STATUS_LABELS[result.status].toLowerCase()}` : label);
    listings.reload();
    counts.reload();
  };
  // From a button or menu: the error shows on the page (dialogs show their own).
  const act = (label: string, run: () => Promise<unknown>) => acting.run(() => perform(label, run));
  const move = (id: string, action: Move) => {
    const path = `/public/v1/job-listings/{id}/${action}` as '/public/v1/job-listings/{id}/publish';
    return act(action === 'publish' ? 'Published' : action === 'close' ? 'Closed' : 'Archived', () => call(api.POST(path, { params: { path: { id } } })));
  };

  const actions = (item: Item) =>
    review ? (
      isAdmin && (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" onClick={() => void act('Approved', () => call(api.POST('/settings/job-listings/{id}/approve', { params: { path: { id: item.id } } })))}>
            Approve {item.position.value}
          </Button>
          <Button size="xs" color="red" variant="light" onClick={() => setRejecting(item)}>
            Reject {item.position.value}
          </Button>
        </Group>
      )
    ) : (
      isAdmin && (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setEditing(item.id)} aria-label={`Edit ${item.position.value}`}>
            Edit
          </Button>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size="xs" variant="default" aria-label={`More actions for ${item.position.value}`}>
                More
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(item.status === 'DRAFT' || item.status === 'CLOSED') && <Menu.Item onClick={() => void move(item.id, 'publish')}>Publish</Menu.Item>}
              {(item.status === 'ACTIVE' || item.status === 'UNDER_REVIEW') && <Menu.Item onClick={() => void move(item.id, 'close')}>Close</Menu.Item>}
              {item.status !== 'ARCHIVED' && <Menu.Item onClick={() => void move(item.id, 'archive')}>Archive</Menu.Item>}
              {item.status === 'DRAFT' && (
                <Menu.Item color="red" onClick={() => setDeleting(item)}>
                  Delete draft
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      )
    );

  return (
    <Page>
      <PageHeader title="Job listings">{isAdmin && <Button onClick={() => setEditing('new')}>New listing</Button>}</PageHeader>
      {!isAdmin && (
        <Text size="sm" c="dimmed">
          Only an admin can create, edit, publish, close or archive listings.
        </Text>
      )}
      {lastVisit && (
        <Text size="sm" c="dimmed" data-testid="last-visit">
          “New” counts applications since your last visit here, {timeAgo(lastVisit)} ({formatDate(lastVisit)}).
        </Text>
      )}
      <Tabs value={tab} onChange={(value) => filter(setView)(value === 'review' ? 'review' : null)}>
        <Tabs.List>
          <Tabs.Tab value="all">All listings</Tabs.Tab>
          <Tabs.Tab value="review">Review queue</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group align="flex-end" wrap="wrap">
        {!review && (
          <Select
            label="Status"
            placeholder="Any (not archived)"
            clearable
            data={options(LISTING_STATUS_LABELS)}
            value={status}
            onChange={filter(setStatusParam)}
            w={200}
          />
        )}
        <Select
          label="Workplace"
          placeholder="Any workplace"
          clearable
          data={options(WORK_PLACE_LABELS)}
          value={workPlace}
          onChange={filter(setWorkPlaceParam)}
          w={180}
        />
        <Select
          label="Position type"
          placeholder="Any type"
          clearable
          data={options(POSITION_TYPE_LABELS)}
          value={positionType}
          onChange={filter(setTypeParam)}
          w={180}
        />
        <TextInput
          label="Search by position"
          description="In any language it is written or translated in"
          type="search"
          maxLength={SEARCH_MAX}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            writeSearch(event.currentTarget.value.trim());
          }}
          w={{ base: '100%', xs: 300 }}
        />
      </Group>
      {review && (
        <Text size="sm" c="dimmed">
          Listings published while “Listings need review” is on wait here. {isAdmin ? 'Approve to publish, or reject with a reason.' : 'Only an admin can approve or reject.'}
        </Text>
      )}
      <ErrorMessage error={acting.error} title="That did not work" />
      <Notice>{notice}</Notice>
      <ResourceTable
        state={listings}
        loadingLabel="Loading listings"
        empty={
          q
            ? `No listing matches “${q}”.`
            : review
              ? 'Nothing is waiting for review.'
              : status || workPlace || positionType
                ? 'No listing matches these filters.'
                : 'No job listings yet. Create one to start.'
        }
        label="Job listings"
        minWidth={860}
        rowKey={(item) => item.id}
        rowTestId={(item) => `listing-row-${item.id}`}
        page={{ value: page, onChange: setPage }}
        countLabel={(total) => (q ? `${plural(total, 'listing')} ${total === 1 ? 'matches' : 'match'} “${q}”` : plural(total, 'listing'))}
        columns={[
          { header: 'Position', cell: (item) => item.position.value },
          {
            header: 'Status',
            cell: (item) => (
              <>
                <StatusBadge status={item.status} />
                <CareersLink slug={careersSlug} id={item.id} status={item.status} />
              </>
            ),
          },
          { header: 'Type', cell: (item) => `${POSITION_TYPE_LABELS[item.positionType]} · ${WORK_PLACE_LABELS[item.workPlaceType].toLowerCase()}` },
          { header: 'Applicants', cell: (item) => <Applicants counts={counts.data?.get(item.id)} since={lastVisit} /> },
          { header: 'Created', cell: (item) => timeAgo(item.createdAt), title: (item) => formatDate(item.createdAt) },
          { header: 'Actions', cell: actions },
        ]}
      />

      <Drawer opened={Boolean(editing)} onClose={() => setEditing(undefined)} title={editing === 'new' ? 'New job listing' : 'Edit job listing'} position="right" size="xl">
        {editing && <ListingEditor id={editing} onChanged={listings.reload} onClose={() => setEditing(undefined)} />}
      </Drawer>
      <ConfirmDialog
        opened={Boolean(rejecting)}
        onClose={() => {
          setRejecting(undefined);
          setReason('');
        }}
        title="Reject listing"
        confirmLabel="Reject listing"
        disabled={!reason.trim()}
        onConfirm={() => perform('Rejected', () => call(api.POST('/settings/job-listings/{id}/reject', { params: { path: { id: rejecting!.id } }, body: { reason } })))}
      >
        <Title order={3} size="h5">
          {rejecting?.position.value}
        </Title>
        <Textarea label="Reason (shown on the listing)" required value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={2000} data-autofocus />
      </ConfirmDialog>
      <ConfirmDialog
        opened={Boolean(deleting)}
        onClose={() => setDeleting(undefined)}
        title="Delete draft?"
        confirmLabel="Delete draft"
        onConfirm={() => perform('Deleted', () => call(api.DELETE('/public/v1/job-listings/{id}', { params: { path: { id: deleting!.id } } })))}
      >
        <Text size="sm">“{deleting?.position.value}” is deleted for good.</Text>
      </ConfirmDialog>
    </Page>
  );
}
