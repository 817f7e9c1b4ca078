import { Alert, Badge, Button, Card, Code, CopyButton, Drawer, Group, Modal, MultiSelect, Pagination, SegmentedControl, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { Empty, ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo , ScrollTable } from '../ui';

type Subscription = Schemas['WebhookSubscription'];
type EventName = 'application.created' | 'application.status_changed' | 'candidate.created' | 'job_listing.created' | 'job_listing.updated' | 'job_listing.published' | 'job_listing.closed' | 'job_listing.archived' | 'job_listing.deleted' | 'ping';

const EVENTS: Array<{ group: string; items: EventName[] }> = [
  { group: 'Job listings', items: ['job_listing.created', 'job_listing.updated', 'job_listing.published', 'job_listing.closed', 'job_listing.archived', 'job_listing.deleted'] },
  { group: 'Applications', items: ['application.created', 'application.status_changed'] },
  { group: 'Candidates', items: ['candidate.created'] },
  { group: 'Other', items: ['ping'] },
];

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" variant="light" title="Copy the signing secret now">
        It is shown only this once. Your receiver uses it to check each request's signature (Standard Webhooks).
      </Alert>
      <Code block data-testid="signing-secret" style={{ wordBreak: 'break-all' }}>
        {secret}
      </Code>
      <Group justify="space-between">
        <CopyButton value={secret}>{({ copied, copy }) => <Button variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy secret'}</Button>}</CopyButton>
        <Button onClick={onDone}>I have stored it</Button>
      </Group>
    </Stack>
  );
}

function SubscriptionForm({ subscription, onSaved, onClose }: { subscription?: Subscription; onSaved: (saved: Subscription | Schemas['WebhookSubscriptionWithSecret']) => void; onClose: () => void }) {
  const [url, setUrl] = useState(subscription?.url ?? 'https://');
  const [events, setEvents] = useState<string[]>(subscription?.events ?? ['job_listing.published']);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = { url: url.trim(), events: events as EventName[] };
      onSaved(
        subscription
          ? await call(api.PATCH('/public/v1/webhooks/{id}', { params: { path: { id: subscription.id } }, body }))
          : await call(api.POST('/public/v1/webhooks', { body })),
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <TextInput label="Endpoint URL" description="Where events are POSTed (https)" value={url} onChange={(event) => setUrl(event.currentTarget.value)} maxLength={2048} data-autofocus />
      <MultiSelect label="Events" data={EVENTS} value={events} onChange={setEvents} searchable />
      <ErrorMessage error={error} title="Could not save the webhook" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={save} loading={busy} disabled={events.length === 0 || url.trim().length < 8}>
          {subscription ? 'Save webhook' : 'Create webhook'}
        </Button>
      </Group>
    </Stack>
  );
}

const OUTCOME_COLOR = { PENDING: 'orange', DELIVERED: 'green', FAILED: 'red' } as const;

function Deliveries({ subscription }: { subscription: Subscription }) {
  const [outcome, setOutcome] = useState('ALL');
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>();
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
  const redeliver = async (deliveryId: string) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await call(api.POST('/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: subscription.id, deliveryId } } }));
      setNotice('Queued for redelivery.');
      deliveries.reload();
    } catch (caught) {
      setError(caught);
    }
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
      <ErrorMessage error={error} title="Could not redeliver" />
      {notice && (
        <Text size="sm" c="#1e6b34" role="status">
          {notice}
        </Text>
      )}
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
                    {delivery.attemptCount} attempt(s)
                    {delivery.nextAttemptAt ? ` · next ${timeAgo(delivery.nextAttemptAt)}` : ''}
                  </Text>
                  {delivery.attempts.length > 0 && (
                    <ScrollTable minWidth={480} label={`Attempts of ${delivery.eventType}`}>
                      <Table fz="xs" mt="xs">
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>When</Table.Th>
                            <Table.Th>Status</Table.Th>
                            <Table.Th>Duration</Table.Th>
                            <Table.Th>Response</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {delivery.attempts.map((attempt) => (
                            <Table.Tr key={attempt.id}>
                              <Table.Td>{formatDate(attempt.attemptedAt)}</Table.Td>
                              <Table.Td>{attempt.statusCode ?? attempt.error ?? '—'}</Table.Td>
                              <Table.Td>{attempt.durationMs} ms</Table.Td>
                              <Table.Td style={{ wordBreak: 'break-all' }}>{(attempt.responseBody ?? '').slice(0, 200) || '—'}</Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    </ScrollTable>
                  )}
                </Card>
              ))}
              {pagination.totalPages > 1 && <Pagination total={pagination.totalPages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
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
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  const [round, setRound] = useState(0);
  const run = async (label: string, action: () => Promise<void>) => {
    setBusy(label);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(undefined);
    }
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
            await call(api.PATCH('/public/v1/webhooks/{id}', { params: { path: { id: subscription.id } }, body: { active } as never }));
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
      <ErrorMessage error={error} />
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

export function WebhooksPage() {
  const [page, setPage] = useState(1);
  const subscriptions = useLoad(() => call(api.GET('/public/v1/webhooks', { params: { query: { page: page - 1, size: 20 } } })), [page]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [openId, setOpenId] = useState<string>();
  const [deleting, setDeleting] = useState<Subscription>();
  const [error, setError] = useState<unknown>();
  const open = subscriptions.data?.data.find((subscription) => subscription.id === openId);
  return (
    <Page>
      <PageHeader title="Webhooks">
        <Button onClick={() => setCreating(true)}>Add webhook</Button>
      </PageHeader>
      <Text size="sm" c="dimmed">
        The service POSTs signed events to your endpoints, retrying failures with backoff.
      </Text>
      <ErrorMessage error={error} />
      <LoadState state={subscriptions} label="Loading webhooks">
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>No webhooks yet. Add one to receive events.</Empty>
          ) : (
            <>
              <ScrollTable minWidth={640} label="Webhooks">
                <Table highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Endpoint</Table.Th>
                      <Table.Th>Events</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Actions</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.map((subscription) => (
                      <Table.Tr key={subscription.id}>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{subscription.url}</Table.Td>
                        <Table.Td>{subscription.events.length}</Table.Td>
                        <Table.Td>
                          <Badge variant="outline" color={subscription.active ? 'green' : 'gray'}>
                            {subscription.active ? 'Enabled' : 'Disabled'}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Button size="xs" variant="default" onClick={() => setOpenId(subscription.id)} aria-label={`Open ${subscription.url}`}>
                              Open
                            </Button>
                            <Button size="xs" color="red" variant="light" onClick={() => setDeleting(subscription)} aria-label={`Delete ${subscription.url}`}>
                              Delete
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
              {pagination.totalPages > 1 && <Pagination total={pagination.totalPages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
            </>
          )
        }
      </LoadState>
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
      <Modal opened={Boolean(deleting)} onClose={() => setDeleting(undefined)} title="Delete webhook?">
        <Stack>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {deleting?.url} receives no more events.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() =>
                void call(api.DELETE('/public/v1/webhooks/{id}', { params: { path: { id: deleting!.id } } })).then(
                  () => {
                    setDeleting(undefined);
                    subscriptions.reload();
                  },
                  (caught) => {
                    setDeleting(undefined);
                    setError(caught);
                  },
                )
              }
            >
              Delete webhook
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}
