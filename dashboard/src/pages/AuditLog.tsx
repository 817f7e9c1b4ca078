// Settings > Audit log (ADMINs): who did what and when, newest first, filtered by action, by who
// did it and by period. The filters and the page live in the address, so a reload or a shared link
// shows the same entries.
import { Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { api, call, useLoad, type Schemas } from '../api';
import { ResourceTable } from '../components';
import { useQueryParam } from '../router';
import { Empty, formatDate, Page, PageHeader, timeAgo, useIsAdmin } from '../ui';

type Entry = Schemas['AuditEntry'];
type Action = Entry['action'];

/** Each action in words, grouped as a person thinks of them. */
const ACTION_LABELS: Record<Action, string> = {
  'api_key.created': 'API key created',
  'api_key.renamed': 'API key renamed',
  'api_key.revoked': 'API key revoked',
  'member.invited': 'Member invited',
  'member.invitation_cancelled': 'Invitation cancelled',
  'member.removed': 'Member removed',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.deleted': 'Webhook deleted',
  'job_listing.published': 'Listing published',
  'candidate.erased': 'Candidate erased',
};

const ACTION_GROUPS: Array<{ group: string; items: Action[] }> = [
  { group: 'API keys', items: ['api_key.created', 'api_key.renamed', 'api_key.revoked'] },
  { group: 'Members', items: ['member.invited', 'member.invitation_cancelled', 'member.removed'] },
  { group: 'Webhooks', items: ['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted'] },
  { group: 'Listings and candidates', items: ['job_listing.published', 'candidate.erased'] },
];

const ACTOR_KINDS: Record<Entry['actor']['type'], string> = { USER: 'Person', API_KEY: 'API key', SYSTEM: 'Operator' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day (YYYY-MM-DD, UTC) as the instant it starts; `next` the instant the following day starts. */
function dayStart(day: string | null, next = false): string | undefined {
  if (!day || !DAY.test(day)) return undefined;
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime())) return undefined;
  if (next) start.setUTCDate(start.getUTCDate() + 1);
  return start.toISOString();
}

/** What else the entry says, in a line: scopes, roles, what changed. */
function describe(entry: Entry): string {
  const detail = entry.detail as Record<string, unknown>;
  switch (entry.action) {
    case 'api_key.created':
      return Array.isArray(detail.scopes) ? `Scopes: ${(detail.scopes as string[]).join(', ')}` : '';
    case 'api_key.renamed':
      return typeof detail.previousLabel === 'string' ? `Was “${detail.previousLabel}”` : '';
    case 'member.invited':
    case 'member.removed':
      return typeof detail.role === 'string' ? `Role: ${detail.role === 'ADMIN' ? 'Admin' : 'Member'}` : '';
    case 'webhook.created':
      return Array.isArray(detail.events) ? `Events: ${(detail.events as string[]).join(', ')}` : '';
    case 'webhook.updated': {
      const parts: string[] = [];
      const active = detail.active as { to?: boolean } | undefined;
      if (active) parts.push(active.to ? 'switched on' : 'switched off');
      if (detail.url) parts.push('address changed');
      if (detail.events) parts.push('events changed');
      return parts.join(', ').replace(/^./, (first) => first.toUpperCase());
    }
    case 'job_listing.published':
      return detail.from === 'CLOSED' ? 'Reopened' : detail.from === 'UNDER_REVIEW' ? 'Approved after review' : '';
    case 'candidate.erased': {
      const count = Array.isArray(detail.applicationIds) ? detail.applicationIds.length : 0;
      return `${count} ${count === 1 ? 'application' : 'applications'} anonymized`;
    }
    default:
      return '';
  }
}

function targetOf(entry: Entry): string {
  if (entry.action === 'candidate.erased') return 'An erased candidate';
  return entry.target.label ?? '—';
}

export function AuditLogPage() {
  const isAdmin = useIsAdmin();
  const [actionParam, setAction] = useQueryParam('action');
  const [actorParam, setActor] = useQueryParam('actor');
  const [fromParam, setFrom] = useQueryParam('from');
  const [toParam, setTo] = useQueryParam('to');
  const [pageParam, setPageParam] = useQueryParam('page');
  const action = actionParam && actionParam in ACTION_LABELS ? (actionParam as Action) : null;
  const page = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  const from = dayStart(fromParam);
  const to = dayStart(toParam, true);
  // Changing a filter starts again at the first page.
  const filter = (set: (value: string | null) => void) => (value: string | null) => {
    set(value);
    setPageParam(null);
  };

  const actors = useLoad(async () => {
    if (!isAdmin) return [];
    const [members, keys] = await Promise.all([
      call(api.GET('/settings/members', { params: { query: { page: 0, size: 100 } } })),
      call(api.GET('/settings/api-keys')),
    ]);
    return [
      { group: 'People', items: members.data.map((member) => ({ value: member.userId, label: member.name || member.email })) },
      { group: 'API keys', items: keys.data.map((key) => ({ value: key.id, label: key.label })) },
    ];
  }, [isAdmin]);

  const entries = useLoad(async () => {
    if (!isAdmin) return { data: [] as Entry[] };
    return call(
      api.GET('/settings/audit-log', {
        params: {
          query: {
            page: page - 1,
            size: 25,
            ...(action ? { action } : {}),
            ...(actorParam ? { actorId: actorParam } : {}),
            ...(from ? { from } : {}),
            ...(to && (!from || to > from) ? { to } : {}),
          },
        },
      }),
    );
  }, [isAdmin, page, action, actorParam, from, to]);

  if (!isAdmin) {
    return (
      <Page>
        <PageHeader title="Audit log" />
        <Empty>Only an admin can read the audit log.</Empty>
      </Page>
    );
  }

  const filtered = Boolean(action || actorParam || from || to);
  return (
    <Page>
      <PageHeader title="Audit log" />
      <Text size="sm" c="dimmed">
        Who changed keys, members, webhooks and listings, and who erased candidates: every entry is kept.
      </Text>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter the audit log">
        <Select label="Action" placeholder="Every action" data={ACTION_GROUPS.map(({ group, items }) => ({ group, items: items.map((value) => ({ value, label: ACTION_LABELS[value] })) }))} value={action} onChange={filter(setAction)} clearable w={230} />
        <Select label="Done by" placeholder="Anyone" data={actors.data ?? []} value={actorParam} onChange={filter(setActor)} clearable searchable w={230} />
        <TextInput type="date" label="From" value={fromParam ?? ''} onChange={(event) => filter(setFrom)(event.currentTarget.value || null)} w={170} />
        <TextInput type="date" label="To" value={toParam ?? ''} onChange={(event) => filter(setTo)(event.currentTarget.value || null)} w={170} />
        {filtered && (
          <Button
            variant="default"
            onClick={() => {
              for (const set of [setAction, setActor, setFrom, setTo, setPageParam]) set(null);
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      <ResourceTable
        state={entries}
        loadingLabel="Loading the audit log"
        empty={filtered ? 'Nothing matches these filters.' : 'Nothing recorded yet: creating an API key, inviting a member or publishing a listing shows here.'}
        label="Audit log"
        minWidth={760}
        rowKey={(entry) => entry.id}
        rowTestId={() => 'audit-entry'}
        page={{ value: page, onChange: (next) => setPageParam(next > 1 ? String(next) : null, 'push') }}
        columns={[
          { header: 'When', cell: (entry) => timeAgo(entry.occurredAt), title: (entry) => formatDate(entry.occurredAt) },
          {
            header: 'Who',
            cell: (entry) => (
              <Stack gap={0}>
                <Text size="sm">{entry.actor.label}</Text>
                <Text size="xs" c="dimmed">
                  {ACTOR_KINDS[entry.actor.type]}
                </Text>
              </Stack>
            ),
          },
          {
            header: 'Action',
            cell: (entry) => (
              <Badge variant="outline" tt="none">
                {ACTION_LABELS[entry.action] ?? entry.action}
              </Badge>
            ),
          },
          { header: 'On', cell: targetOf },
          { header: 'Details', cell: (entry) => describe(entry) || '—' },
        ]}
      />
    </Page>
  );
}
