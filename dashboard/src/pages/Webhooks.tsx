import { Alert, Badge, Button, Card, Code, Drawer, Group, Modal, MultiSelect, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type RequestBody, type Schemas } from '../api';
import { ConfirmDialog, DataTable, FormActions, Notice, Pager, ResourceTable, ShownOnce, useAction } from '../components';
import { plural } from '../labels';
import { isLocalUrl } from '../refusal';
import { Empty, ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo, useIsAdmin } from '../ui';

type Subscription = Schemas['WebhookSubscription'];
type EventName = RequestBody<'/public/v1/webhooks', 'post'>['events'][number];

/**
 * Every event a receiver can subscribe to, in words: the compiler refuses an event the API adds and
 * this list leaves out. `ping` is what "Send test" sends, not something to subscribe to.
 */
const EVENT_LABELS: Record<Exclude<EventName, 'ping'>, [group: string, label: string]> = {
  'job_listing.created': ['Job listings', 'Listing created'],
  'job_listing.updated': ['Job listings', 'Listing changed'],
  'job_listing.published': ['Job listings', 'Listing published'],
  'job_listing.closed': ['Job listings', 'Listing closed'],
  'job_listing.archived': ['Job listings', 'Listing archived'],
  'job_listing.deleted': ['Job listings', 'Listing deleted'],
  'application.created': ['Applications', 'Application received'],
  'application.status_changed': ['Applications', 'Application moved to another stage'],
  'candidate.created': ['Candidates', 'Candidate added'],
  'candidate.erased': ['Candidates', 'Candidate erased (privacy request)'],
  'candidate.file_added': ['Candidates', 'File added to a candidate'],
  'candidate.file_removed': ['Candidates', 'File removed from a candidate'],
  'note.created': ['Notes', 'Note added'],
  'note.updated': ['Notes', 'Note edited'],
  'note.deleted': ['Notes', 'Note deleted'],
};

const EVENTS = [...new Set(Object.values(EVENT_LABELS).map(([group]) => group))].map((group) => ({
  group,
  items: Object.entries(EVENT_LABELS)
    .filter(([, [of]]) => of === group)
    .map(([value, [, label]]) => ({ value, label: `${label} (${value})` })),
}));

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnce title="Copy the signing secret now" value={secret} testId="signing-secret" copyLabel="Copy secret" onDone={onDone}>
      It is shown only this once. Your receiver uses it to check each request's signature (Standard Webhooks).
    </ShownOnce>
  );
}

function SubscriptionForm({ subscription, onSaved, onClose }: { subscription?: Subscription; onSaved: (saved: Subscription | Schemas['WebhookSubscriptionWithSecret']) => void; onClose: () => void }) {
  const [url, setUrl] = useState(subscription?.url ?? 'https://');
  const [events, setEvents] = useState<string[]>(subscription?.events ?? ['job_listing.published']);
  const saving = useAction();
  const save = () =>
    void saving.run(async () => {
      const body = { url: url.trim(), events: events as EventName[] };
      onSaved(
        subscription
          ? await call(api.PATCH('/public/v1/webhooks/{id}', { params: { path: { id: subscription.id } }, body }))
          : await call(api.POST('/public/v1/webhooks', { body })),
      );
    });
  return (
    <Stack>
      <TextInput label="Endpoint URL" description="Where events are POSTed (https)" value={url} onChange={(event) => setUrl(event.currentTarget.value)} maxLength={2048} data-autofocus />
      <MultiSelect label="Events" data={EVENTS} value={events} onChange={setEvents} searchable />
      <ErrorMessage error={saving.error} title="Could not save the webhook" local={isLocalUrl(url)} />
      <FormActions
        submitLabel={subscription ? 'Save webhook' : 'Create webhook'}
        onSubmit={save}
        onCancel={onClose}
        busy={saving.busy}
        disabled={events.length === 0 || url.trim().length < 8}
      />
    </Stack>
  );
}

const OUTCOME_COLOR = { PENDING: 'orange', DELIVERED: 'green', FAILED: 'red' } as const;

function Deliveries({ subscription }: { subscription: Subscription }) {
  const [outcome, setOutcome] = useState('ALL');
  const [page, setPage] = useState(1);
  const redelivering = useAction();
  const [notice, setNotice] = useState<string>();
  const deliveries = useLoad(
    () =>
      call(
        api.GET('/public/v1/webhooks/{id}/deliveries', {
          params: { path: { id: subscription.id }, query: { page: page - 1, size: 20, ...(outcome === 'ALL' ? {} : { status: outcome as 'PENDING' }) } },
        }),
      ),
    [subscription.id, outcome, page],
  );
  const redeliver = (deliveryId: string) => {
    setNotice(undefined);
    return redelivering.run(async () => {
      await call(api.POST('/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: subscription.id, deliveryId } } }));
      setNotice('Queued for redelivery.');
      deliveries.reload();
    });
  };
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          aria-label="Outcome"
          value={outcome}
          onChange={(value) => {
            setOutcome(value);
            setPage(1);
          }}
          data={[
            { value: 'ALL', label: 'All' },
            { value: 'DELIVERED', label: 'Delivered' },
            { value: 'FAILED', label: 'Failed' },
            { value: 'PENDING', label: 'Pending' },
          ]}
        />
        <Button variant="default" size="xs" onClick={deliveries.reload}>
          Refresh
        </Button>
      </Group>
      <ErrorMessage error={redelivering.error} title="Could not redeliver" />
      <Notice>{notice}</Notice>
      <LoadState state={deliveries} label="Loading deliveries">
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>No deliveries{outcome === 'ALL' ? ' yet. Send a test to see one.' : ' with this outcome.'}</Empty>
          ) : (
            <Stack>
              {data.map((delivery) => (
                <Card key={delivery.id} withBorder padding="sm" data-testid="delivery">
                  <Group justify="space-between" wrap="wrap">
                    <Group gap="xs">
                      <Badge color={OUTCOME_COLOR[delivery.status]} variant="outline">
                        {delivery.status}
                      </Badge>
                      <Code>{delivery.eventType}</Code>
                      <Text size="xs" c="dimmed" title={formatDate(delivery.createdAt)}>
                        {timeAgo(delivery.createdAt)}
                      </Text>
                    </Group>
                    <Button size="xs" variant="default" onClick={() => void redeliver(delivery.id)} aria-label={`Redeliver ${delivery.eventType} from ${formatDate(delivery.createdAt)}`}>
                      Redeliver
                    </Button>
                  </Group>
                  <Text size="xs" mt={4}>
                    {plural(delivery.attemptCount, 'attempt')}
                    {delivery.nextAttemptAt ? ` · next ${timeAgo(delivery.nextAttemptAt)}` : ''}
                  </Text>
                  {delivery.attempts.length > 0 && (
                    <DataTable
                      label={`Attempts of ${delivery.eventType}`}
                      minWidth={480}
                      fontSize="xs"
                      rows={delivery.attempts}
                      rowKey={(attempt) => attempt.id}
                      columns={[
                        { header: 'When', cell: (attempt) => formatDate(attempt.attemptedAt) },
                        { header: 'Status', cell: (attempt) => attempt.statusCode ?? attempt.error ?? '—' },
                        { header: 'Duration', cell: (attempt) => `${attempt.durationMs} ms` },
                        { header: 'Response', cell: (attempt) => (attempt.responseBody ?? '').slice(0, 200) || '—', style: { wordBreak: 'break-all' } },
                      ]}
                    />
                  )}
                </Card>
              ))}
              <Pager total={pagination.totalPages} value={page} onChange={setPage} />
            </Stack>
          )
        }
      </LoadState>
    </Stack>
  );
}

function Detail({ subscription, onChanged }: { subscription: Subscription; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [test, setTest] = useState<Schemas['WebhookTestResult']>();
  const acting = useAction();
  // Which button is working, for its spinner.
  const [which, setWhich] = useState<string>();
  const busy = acting.busy ? which : undefined;
  const [round, setRound] = useState(0);
  const run = (label: string, action: () => Promise<void>) => {
    setWhich(label);
    return acting.run(action);
  };
  return (
    <Stack>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        <strong>URL:</strong> {subscription.url}
      </Text>
      <Group gap={4}>
        {subscription.events.map((event) => (
          <Badge key={event} variant="outline" tt="none">
            {event}
          </Badge>
        ))}
      </Group>
      {subscription.disabledReason && (
        <Alert color="red" variant="light" title="Disabled by the server">
          {subscription.disabledReason === 'ENDPOINT_GONE' ? 'The endpoint answered 410 Gone.' : 'Deliveries kept failing.'} Enable it again when the endpoint works.
        </Alert>
      )}
      <Switch
        label="Enabled"
        checked={subscription.active}
        onChange={(event) => {
          const active = event.currentTarget.checked;
          void run('active', async () => {
            await call(api.PATCH('/public/v1/webhooks/{id}', { params: { path: { id: subscription.id } }, body: { active } }));
            onChanged();
          });
        }}
      />
      <Group wrap="wrap">
        <Button
          loading={busy === 'test'}
          onClick={() =>
            void run('test', async () => {
              setTest(await call(api.POST('/public/v1/webhooks/{id}/test', { params: { path: { id: subscription.id } } })));
              setRound((n) => n + 1);
            })
          }
        >
          Send test
        </Button>
        <Button variant="default" onClick={() => setEditing(true)}>
          Edit URL and events
        </Button>
        <Button
          variant="default"
          loading={busy === 'rotate'}
          onClick={() =>
            void run('rotate', async () => {
              setSecret((await call(api.POST('/public/v1/webhooks/{id}/rotate-secret', { params: { path: { id: subscription.id } } }))).secret);
            })
          }
        >
          Rotate secret
        </Button>
      </Group>
      <ErrorMessage error={acting.error} />
      {test && (
        <Card withBorder padding="sm" data-testid="test-result">
          <Text size="sm">
            Receiver answered <strong>HTTP {test.status}</strong>
          </Text>
          <Code block mt="xs">
            {test.body || '(empty body)'}
          </Code>
        </Card>
      )}
      <Title order={3} size="h5">
        Delivery log
      </Title>
      <Deliveries key={round} subscription={subscription} />
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit webhook" size="lg">
        <SubscriptionForm
          subscription={subscription}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      </Modal>
      <Modal opened={Boolean(secret)} onClose={() => setSecret(undefined)} title="New signing secret" size="lg" closeOnClickOutside={false}>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(undefined)} />}
      </Modal>
    </Stack>
  );
}

/** Webhooks send candidates' data to any address and their log shows it: an admin's alone. */
export function WebhooksPage() {
  return useIsAdmin() ? (
    <Subscriptions />
  ) : (
    <Page>
      <PageHeader title="Webhooks" />
      <Text size="sm" c="dimmed">
        Only an admin can see and manage webhooks.
      </Text>
    </Page>
  );
}

function Subscriptions() {
  const [page, setPage] = useState(1);
  const subscriptions = useLoad(() => call(api.GET('/public/v1/webhooks', { params: { query: { page: page - 1, size: 20 } } })), [page]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [openId, setOpenId] = useState<string>();
  const [deleting, setDeleting] = useState<Subscription>();
  const open = subscriptions.data?.data.find((subscription) => subscription.id === openId);
  return (
    <Page>
      <PageHeader title="Webhooks">
        <Button onClick={() => setCreating(true)}>Add webhook</Button>
      </PageHeader>
      <Text size="sm" c="dimmed">
        The service POSTs signed events to your endpoints, retrying failures with backoff.
      </Text>
      <ResourceTable
        state={subscriptions}
        loadingLabel="Loading webhooks"
        empty="No webhooks yet. Add one to receive events."
        label="Webhooks"
        minWidth={640}
        rowKey={(subscription) => subscription.id}
        page={{ value: page, onChange: setPage }}
        columns={[
          { header: 'Endpoint', cell: (subscription) => subscription.url, style: { wordBreak: 'break-all' } },
          { header: 'Events', cell: (subscription) => subscription.events.length },
          {
            header: 'Status',
            cell: (subscription) => (
              <Badge variant="outline" color={subscription.active ? 'green' : 'gray'}>
                {subscription.active ? 'Enabled' : 'Disabled'}
              </Badge>
            ),
          },
          {
            header: 'Actions',
            cell: (subscription) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setOpenId(subscription.id)} aria-label={`Open ${subscription.url}`}>
                  Open
                </Button>
                <Button size="xs" color="red" variant="light" onClick={() => setDeleting(subscription)} aria-label={`Delete ${subscription.url}`}>
                  Delete
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="Add a webhook" size="lg">
        <SubscriptionForm
          onClose={() => setCreating(false)}
          onSaved={(saved) => {
            setCreating(false);
            setSecret((saved as Schemas['WebhookSubscriptionWithSecret']).secret);
            subscriptions.reload();
          }}
        />
      </Modal>
      <Modal opened={Boolean(secret)} onClose={() => setSecret(undefined)} title="Signing secret" size="lg" closeOnClickOutside={false}>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(undefined)} />}
      </Modal>
      <Drawer opened={Boolean(open)} onClose={() => setOpenId(undefined)} title="Webhook" position="right" size="xl">
        {open && <Detail subscription={open} onChanged={subscriptions.reload} />}
      </Drawer>
      <ConfirmDialog
        opened={Boolean(deleting)}
        onClose={() => setDeleting(undefined)}
        title="Delete webhook?"
        confirmLabel="Delete webhook"
        onConfirm={async () => {
          await call(api.DELETE('/public/v1/webhooks/{id}', { params: { path: { id: deleting!.id } } }));
          subscriptions.reload();
        }}
      >
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {deleting?.url} receives no more events.
        </Text>
      </ConfirmDialog>
    </Page>
  );
}
