import { Badge, Button, Card, Group, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { Empty, ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo, useIsAdmin, useSession , ScrollTable } from '../ui';

const LANGUAGES = [
  { value: 'en', label: 'English (en)' },
  { value: 'de', label: 'German (de)' },
  { value: 'de-CH', label: 'German, Switzerland (de-CH)' },
  { value: 'fr', label: 'French (fr)' },
  { value: 'it', label: 'Italian (it)' },
  { value: 'es', label: 'Spanish (es)' },
  { value: 'nl', label: 'Dutch (nl)' },
  { value: 'pt', label: 'Portuguese (pt)' },
];

function CompanyForm({ company, onSaved }: { company: Schemas['CompanySettings']; onSaved: () => void }) {
  const isAdmin = useIsAdmin();
  const [name, setName] = useState(company.name);
  const [language, setLanguage] = useState<string | null>(company.defaultLanguage);
  const [review, setReview] = useState(company.requiresListingReview);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName(company.name);
    setLanguage(company.defaultLanguage);
    setReview(company.requiresListingReview);
  }, [company]);
  const languages = LANGUAGES.some((item) => item.value === company.defaultLanguage)
    ? LANGUAGES
    : [...LANGUAGES, { value: company.defaultLanguage, label: company.defaultLanguage }];
  const save = async () => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await call(api.PATCH('/settings/company', { body: { name, defaultLanguage: language ?? undefined, requiresListingReview: review } }));
      setSaved(true);
      onSaved();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Company
        </Title>
        <TextInput label="Company name" value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={!isAdmin} maxLength={200} />
        <Select label="Default language of new listings" data={languages} value={language} onChange={setLanguage} disabled={!isAdmin} allowDeselect={false} />
        <Switch
          label="Listings need review"
          description="Publishing a listing sends it to the review queue until an admin approves or rejects it."
          checked={review}
          onChange={(event) => setReview(event.currentTarget.checked)}
          disabled={!isAdmin}
        />
        <ErrorMessage error={error} title="Could not save" />
        {saved && (
          <Text size="sm" c="#1e6b34" role="status">
            Saved.
          </Text>
        )}
        {isAdmin ? (
          <Group>
            <Button onClick={save} loading={busy} disabled={!name.trim()}>
              Save company settings
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Only an admin can change these settings.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function Members() {
  const isAdmin = useIsAdmin();
  const session = useSession();
  const members = useLoad(() => call(api.GET('/settings/members', { params: { query: { page: 0, size: 100 } } })), []);
  const invitations = useLoad(() => call(api.GET('/settings/members/invitations', { params: { query: { page: 0, size: 100 } } })), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string | null>('MEMBER');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
      members.reload();
      invitations.reload();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Members
        </Title>
        <ErrorMessage error={error} />
        <LoadState state={members} label="Loading members">
          {({ data }) => (
            <ScrollTable minWidth={520} label="Members">
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Person</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Joined</Table.Th>
                    {isAdmin && <Table.Th>Actions</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((member) => (
                    <Table.Tr key={member.userId}>
                      <Table.Td>
                        {member.name ?? member.email}
                        <Text size="xs" c="dimmed">
                          {member.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="outline">{member.role}</Badge>
                      </Table.Td>
                      <Table.Td title={formatDate(member.joinedAt)}>{timeAgo(member.joinedAt)}</Table.Td>
                      {isAdmin && (
                        <Table.Td>
                          {member.userId !== session.userId && (
                            <Button size="xs" color="red" variant="light" loading={busy} onClick={() => void act(() => call(api.DELETE('/settings/members/{userId}', { params: { path: { userId: member.userId } } })))}>
                              Remove {member.email}
                            </Button>
                          )}
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
        </LoadState>
        <Title order={3} size="h5">
          Open invitations
        </Title>
        <LoadState state={invitations} label="Loading invitations">
          {({ data }) =>
            data.length === 0 ? (
              <Empty>No open invitations.</Empty>
            ) : (
              <Stack gap="xs">
                {data.map((invitation) => (
                  <Group key={invitation.id} justify="space-between" wrap="wrap">
                    <Text size="sm">
                      {invitation.email} · {invitation.role} · expires {timeAgo(invitation.expiresAt)}
                    </Text>
                    {isAdmin && (
                      <Button size="xs" variant="default" onClick={() => void act(() => call(api.DELETE('/settings/members/invitations/{id}', { params: { path: { id: invitation.id } } })))}>
                        Cancel invitation for {invitation.email}
                      </Button>
                    )}
                  </Group>
                ))}
              </Stack>
            )
          }
        </LoadState>
        {isAdmin && (
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Invite by e-mail" type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} style={{ flex: 1, minWidth: 200 }} />
            <Select label="Role" data={['MEMBER', 'ADMIN']} value={role} onChange={setRole} allowDeselect={false} w={140} />
            <Button
              loading={busy}
              disabled={!email.includes('@')}
              onClick={() =>
                void act(() => call(api.POST('/settings/members/invitations', { body: { email, role: (role ?? 'MEMBER') as 'MEMBER' | 'ADMIN' } }))).then((ok) => ok && setEmail(''))
              }
            >
              Invite
            </Button>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          Nothing is sent by e-mail: tell the person to sign in with that address.
        </Text>
      </Stack>
    </Card>
  );
}

export function SettingsPage() {
  const company = useLoad(() => call(api.GET('/settings/company')), []);
  return (
    <Page>
      <PageHeader title="Settings" />
      <LoadState state={company} label="Loading settings">
        {(data) => <CompanyForm company={data} onSaved={company.reload} />}
      </LoadState>
      <Members />
    </Page>
  );
}
