import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { Empty, ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo, useIsAdmin , ScrollTable } from '../ui';

const SCOPE_GROUPS = [
  { resource: 'Job listings', read: 'jobs:read', write: 'jobs:write' },
  { resource: 'Applications', read: 'applications:read', write: 'applications:write' },
  { resource: 'Candidates', read: 'candidates:read', write: 'candidates:write' },
  { resource: 'Analytics', read: 'analytics:read', write: undefined },
  { resource: 'Webhooks', read: undefined, write: 'webhooks:manage' },
] as const;

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];

type Scope = (typeof SCOPE_GROUPS)[number]['read' | 'write'] & string;

function CreateKey({ onCreated, onClose }: { onCreated: (key: Schemas['ApiKeyCreated']) => void; onClose: () => void }) {
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['jobs:read']);
  const [days, setDays] = useState<string | null>('365');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const toggle = (scope: Scope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const expiresAt = new Date(Date.now() + Number(days ?? 365) * 24 * 3600 * 1000).toISOString();
      onCreated(await call(api.POST('/settings/api-keys', { body: { label, scopes, expiresAt } })));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <TextInput label="Label" required value={label} onChange={(event) => setLabel(event.currentTarget.value)} maxLength={100} data-autofocus />
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>
          <Text size="sm" fw={500}>
            Scopes
          </Text>
        </legend>
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Resource</Table.Th>
              <Table.Th>Read</Table.Th>
              <Table.Th>Write</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SCOPE_GROUPS.map((group) => (
              <Table.Tr key={group.resource}>
                <Table.Td>{group.resource}</Table.Td>
                {[group.read, group.write].map((scope, index) => (
                  <Table.Td key={index}>
                    {scope ? (
                      <Checkbox label={scope} checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.currentTarget.checked)} />
                    ) : null}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </fieldset>
      <Select label="Expires after" data={EXPIRY} value={days} onChange={setDays} allowDeselect={false} />
      <ErrorMessage error={error} title="Could not create the key" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={busy} disabled={!label.trim() || scopes.length === 0}>
          Create key
        </Button>
      </Group>
    </Stack>
  );
}

function ShowRawKey({ created, onDone }: { created: Schemas['ApiKeyCreated']; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy the key now" variant="light">
        This is the only time the full key is shown. Only its hash is kept: if you lose it, revoke it and create another.
      </Alert>
      <Code block data-testid="raw-key" style={{ wordBreak: 'break-all' }}>
        {created.rawKey}
      </Code>
      <Group justify="space-between">
        <CopyButton value={created.rawKey}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy key'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>I have stored it</Button>
      </Group>
    </Stack>
  );
}

export function ApiKeysPage() {
  const isAdmin = useIsAdmin();
  const keys = useLoad(() => call(api.GET('/settings/api-keys')), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Schemas['ApiKeyCreated']>();
  const [renaming, setRenaming] = useState<Schemas['ApiKey']>();
  const [revoking, setRevoking] = useState<Schemas['ApiKey']>();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const act = async (run: () => Promise<unknown>, after: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
      after();
      keys.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page>
      <PageHeader title="API keys">
        {isAdmin && <Button onClick={() => setCreating(true)}>Create API key</Button>}
      </PageHeader>
      <Text size="sm" c="dimmed">
        Keys let your other systems call the API with the X-API-Key header. {isAdmin ? '' : 'Only an admin can create, rename or revoke keys.'}
      </Text>
      {!revoking && !renaming && <ErrorMessage error={error} />}
      <LoadState state={keys} label="Loading keys">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No API keys yet.{isAdmin ? ' Create one to connect another system.' : ''}</Empty>
          ) : (
            <ScrollTable minWidth={820} label="API keys">
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>Prefix</Table.Th>
                    <Table.Th>Scopes</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Expires</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>Status</Table.Th>
                    {isAdmin && <Table.Th>Actions</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((key) => (
                    <Table.Tr key={key.id} data-testid={`key-${key.keyPrefix}`}>
                      <Table.Td>{key.label}</Table.Td>
                      <Table.Td>
                        <Code>{key.keyPrefix}…</Code>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {key.scopes.map((scope) => (
                            <Badge key={scope} variant="outline" size="sm" tt="none">
                              {scope}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td title={formatDate(key.createdAt)}>{timeAgo(key.createdAt)}</Table.Td>
                      <Table.Td title={formatDate(key.expiresAt)}>{timeAgo(key.expiresAt)}</Table.Td>
                      <Table.Td title={formatDate(key.lastUsedAt)}>{timeAgo(key.lastUsedAt)}</Table.Td>
                      <Table.Td>
                        <Badge color={key.active ? 'green' : 'gray'} variant="outline">{key.active ? 'Active' : 'Inactive'}</Badge>
                      </Table.Td>
                      {isAdmin && (
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="default"
                              aria-label={`Rename ${key.label}`}
                              onClick={() => {
                                setLabel(key.label);
                                setRenaming(key);
                              }}
                            >
                              Rename
                            </Button>
                            {key.active && (
                              <Button size="xs" color="red" variant="light" aria-label={`Revoke ${key.label}`} onClick={() => setRevoking(key)}>
                                Revoke
                              </Button>
                            )}
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )
        }
      </LoadState>

      <Modal opened={creating} onClose={() => setCreating(false)} title="Create an API key" size="lg">
        <CreateKey
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            keys.reload();
          }}
        />
      </Modal>
      <Modal opened={Boolean(created)} onClose={() => setCreated(undefined)} title="Your new API key" size="lg" closeOnClickOutside={false}>
        {created && <ShowRawKey created={created} onDone={() => setCreated(undefined)} />}
      </Modal>
      <Modal opened={Boolean(renaming)} onClose={() => setRenaming(undefined)} title="Rename API key">
        <Stack>
          <TextInput label="Label" value={label} onChange={(event) => setLabel(event.currentTarget.value)} maxLength={100} data-autofocus />
          <ErrorMessage error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRenaming(undefined)}>
              Cancel
            </Button>
            <Button
              loading={busy}
              disabled={!label.trim()}
              onClick={() =>
                void act(
                  () => call(api.PATCH('/settings/api-keys/{id}', { params: { path: { id: renaming!.id } }, body: { label } })),
                  () => setRenaming(undefined),
                )
              }
            >
              Save
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={Boolean(revoking)} onClose={() => setRevoking(undefined)} title="Revoke API key?">
        <Stack>
          <Text size="sm">
            “{revoking?.label}” ({revoking?.keyPrefix}…) stops working at once, on every server. This cannot be undone.
          </Text>
          <ErrorMessage error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={() =>
                void act(
                  () => call(api.DELETE('/settings/api-keys/{id}', { params: { path: { id: revoking!.id } } })),
                  () => setRevoking(undefined),
                )
              }
            >
              Revoke key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}

