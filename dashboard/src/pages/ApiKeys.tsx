import { Badge, Button, Checkbox, Code, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, DataTable, FieldGroup, FormActions, ResourceTable, ShownOnce, useAction } from '../components';
import { ErrorMessage, formatDate, Page, PageHeader, timeAgo, useIsAdmin } from '../ui';

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
  const creating = useAction();
  const toggle = (scope: Scope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  const submit = () =>
    void creating.run(async () => {
      const expiresAt = new Date(Date.now() + Number(days ?? 365) * 24 * 3600 * 1000).toISOString();
      onCreated(await call(api.POST('/settings/api-keys', { body: { label, scopes, expiresAt } })));
    });
  return (
    <Stack>
      <TextInput label="Label" required value={label} onChange={(event) => setLabel(event.currentTarget.value)} maxLength={100} data-autofocus />
      <FieldGroup legend="Scopes">
        <DataTable
          label="Scopes"
          minWidth={300}
          rows={[...SCOPE_GROUPS]}
          rowKey={(group) => group.resource}
          columns={[
            { header: 'Resource', cell: (group) => group.resource },
            ...(['read', 'write'] as const).map((access) => ({
              header: access === 'read' ? 'Read' : 'Write',
              cell: (group: (typeof SCOPE_GROUPS)[number]) => {
                const scope = group[access];
                return scope ? <Checkbox label={scope} checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.currentTarget.checked)} /> : null;
              },
            })),
          ]}
        />
      </FieldGroup>
      <Select label="Expires after" data={EXPIRY} value={days} onChange={setDays} allowDeselect={false} />
      <ErrorMessage error={creating.error} title="Could not create the key" />
      <FormActions submitLabel="Create key" onSubmit={submit} onCancel={onClose} busy={creating.busy} disabled={!label.trim() || scopes.length === 0} />
    </Stack>
  );
}

function ShowRawKey({ created, onDone }: { created: Schemas['ApiKeyCreated']; onDone: () => void }) {
  return (
    <ShownOnce title="Copy the key now" value={created.rawKey} testId="raw-key" copyLabel="Copy key" onDone={onDone}>
      This is the only time the full key is shown. Only its hash is kept: if you lose it, revoke it and create another.
    </ShownOnce>
  );
}

/** A badge's whole text, whatever room its column has. */
const UNCUT = { root: { flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } } as const;

export function ApiKeysPage() {
  const isAdmin = useIsAdmin();
  const keys = useLoad(() => call(api.GET('/settings/api-keys')), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Schemas['ApiKeyCreated']>();
  const [renaming, setRenaming] = useState<Schemas['ApiKey']>();
  const [revoking, setRevoking] = useState<Schemas['ApiKey']>();
  const [label, setLabel] = useState('');

  return (
    <Page>
      <PageHeader title="API keys">
        {isAdmin && <Button onClick={() => setCreating(true)}>Create API key</Button>}
      </PageHeader>
      <Text size="sm" c="dimmed">
        Keys let your other systems call the API with the X-API-Key header. {isAdmin ? '' : 'Only an admin can create, rename or revoke keys.'}
      </Text>
      <ResourceTable
        state={keys}
        loadingLabel="Loading keys"
        empty={`No API keys yet.${isAdmin ? ' Create one to connect another system.' : ''}`}
        label="API keys"
        minWidth={820}
        striped
        rowKey={(key) => key.id}
        rowTestId={(key) => `key-${key.keyPrefix}`}
        columns={[
          { header: 'Label', cell: (key) => key.label },
          { header: 'Prefix', cell: (key) => <Code>{key.keyPrefix}…</Code> },
          {
            header: 'Scopes',
            cell: (key) => (
              <Group gap={4}>
                {key.scopes.map((scope) => (
                  <Badge key={scope} variant="outline" size="sm" tt="none">
                    {scope}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { header: 'Created', cell: (key) => timeAgo(key.createdAt), title: (key) => formatDate(key.createdAt) },
          { header: 'Expires', cell: (key) => timeAgo(key.expiresAt), title: (key) => formatDate(key.expiresAt) },
          { header: 'Last used', cell: (key) => timeAgo(key.lastUsedAt), title: (key) => formatDate(key.lastUsedAt) },
          {
            header: 'Status',
            cell: (key) => (
              // Never cut to "ACTI…" when the scopes take the row's width: the badge keeps its text's width.
              <Badge color={key.active ? 'green' : 'gray'} variant="outline" styles={UNCUT}>
                {key.active ? 'Active' : 'Inactive'}
              </Badge>
            ),
          },
          isAdmin && {
            header: 'Actions',
            cell: (key) => (
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
            ),
          },
        ]}
      />

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
      <ConfirmDialog
        opened={Boolean(renaming)}
        onClose={() => setRenaming(undefined)}
        title="Rename API key"
        confirmLabel="Save"
        color="blue"
        disabled={!label.trim()}
        onConfirm={async () => {
          await call(api.PATCH('/settings/api-keys/{id}', { params: { path: { id: renaming!.id } }, body: { label } }));
          keys.reload();
        }}
      >
        <TextInput label="Label" value={label} onChange={(event) => setLabel(event.currentTarget.value)} maxLength={100} data-autofocus />
      </ConfirmDialog>
      <ConfirmDialog
        opened={Boolean(revoking)}
        onClose={() => setRevoking(undefined)}
        title="Revoke API key?"
        confirmLabel="Revoke key"
        onConfirm={async () => {
          await call(api.DELETE('/settings/api-keys/{id}', { params: { path: { id: revoking!.id } } }));
          keys.reload();
        }}
      >
        <Text size="sm">
          “{revoking?.label}” ({revoking?.keyPrefix}…) stops working at once, on every server. This cannot be undone.
        </Text>
      </ConfirmDialog>
    </Page>
  );
}
