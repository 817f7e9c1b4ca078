import { Badge, Button, Drawer, Group, Menu, Select, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, Notice, ResourceTable, useAction } from '../components';
import { ErrorMessage, formatDate, Page, PageHeader, timeAgo, useIsAdmin } from '../ui';
import { ListingEditor } from './ListingEditor';
import { CareersLink, useCareersSlug } from './CareersSettings';

type Item = Schemas['JobListingListItem'];
type Status = Item['status'];

const STATUS_COLOR: Record<Status, string> = { DRAFT: 'gray', ACTIVE: 'green', UNDER_REVIEW: 'orange', CLOSED: 'red', ARCHIVED: 'gray' };
const PAGE_SIZE = 20;
/** The API's bound on `q`. */
const SEARCH_MAX = 200;

export function StatusBadge({ status }: { status: Status }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="outline">
      {status.replace('_', ' ')}
    </Badge>
  );
}

type Move = 'publish' | 'close' | 'archive';

export function ListingsPage() {
  const isAdmin = useIsAdmin();
  const careersSlug = useCareersSlug();
  const [tab, setTab] = useState<string | null>('all');
  const [status, setStatus] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string>();
  const [rejecting, setRejecting] = useState<Item>();
  const [reason, setReason] = useState('');
  const [deleting, setDeleting] = useState<Item>();
  const [notice, setNotice] = useState<string>();
  const acting = useAction();
  const review = tab === 'review';
  const effectiveStatus = review ? 'UNDER_REVIEW' : status;
  // The page number resets with every filter: it is part of the request, not kept across filters.
  const listings = useLoad(
    () =>
      call(
        api.GET('/public/v1/job-listings', {
          params: { query: { page: page - 1, size: PAGE_SIZE, ...(effectiveStatus ? { status: [effectiveStatus as Status] } : {}), ...(q ? { q } : {}) } },
        }),
      ),
    [page, effectiveStatus, q],
  );
  const filter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };

  /** Runs a change, then says what happened and reloads; throws what the API refused. */
  const perform = async (label: string, run: () => Promise<unknown>) => {
    setNotice(undefined);
    const result = (await run()) as { status?: Status } | undefined;
    setNotice(result?.status ? `${label}: now ${result.status.replace('_', ' ')}` : label);
    listings.reload();
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
      <Tabs value={tab} onChange={filter(setTab)}>
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
            data={['DRAFT', 'ACTIVE', 'UNDER_REVIEW', 'CLOSED', 'ARCHIVED']}
            value={status}
            onChange={filter(setStatus)}
            w={200}
          />
        )}
        <TextInput
          label="Search by position"
          description="In any language it is written or translated in"
          type="search"
          maxLength={SEARCH_MAX}
          value={search}
          onChange={(event) => filter(setSearch)(event.currentTarget.value)}
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
        empty={q ? `No listing matches “${q}”.` : review ? 'Nothing is waiting for review.' : 'No job listings yet. Create one to start.'}
        label="Job listings"
        minWidth={720}
        rowKey={(item) => item.id}
        page={{ value: page, onChange: setPage }}
        countLabel={q ? `listing(s) match “${q}”` : 'listing(s)'}
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
          { header: 'Type', cell: (item) => `${item.positionType.replace('_', ' ').toLowerCase()} · ${item.workPlaceType.replace('_', ' ').toLowerCase()}` },
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
