import { Badge, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, Notice, ResourceTable, SettingsSave, SettingSwitch, useAction } from '../components';
import { languageOptions } from '../labels';
import { ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo, useIsAdmin, useSession } from '../ui';
import { CareersSettings } from './CareersSettings';


function CompanyForm({ company, onSaved }: { company: Schemas['CompanySettings']; onSaved: () => void }) {
  const isAdmin = useIsAdmin();
  const [name, setName] = useState(company.name);
  const [language, setLanguage] = useState<string | null>(company.defaultLanguage);
  const [review, setReview] = useState(company.requiresListingReview);
  const [reasonRequired, setReasonRequired] = useState(company.requiresRejectionReason);
  const [saved, setSaved] = useState(false);
  const saving = useAction();
  // The saved settings, once they come back, are what the form shows.
  const [shown, setShown] = useState(company);
  if (shown !== company) {
    setShown(company);
    setName(company.name);
    setLanguage(company.defaultLanguage);
    setReview(company.requiresListingReview);
    setReasonRequired(company.requiresRejectionReason);
  }
  const languages = languageOptions([company.defaultLanguage]);
  const save = () => {
    setSaved(false);
    void saving.run(async () => {
      await call(api.PATCH('/settings/company', { body: { name, defaultLanguage: language ?? undefined, requiresListingReview: review, requiresRejectionReason: reasonRequired } }));
      setSaved(true);
      onSaved();
    });
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Company
        </Title>
        <TextInput label="Company name" value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={!isAdmin} maxLength={200} />
        <Select label="Default language of new listings" data={languages} searchable nothingFoundMessage="No language by that name" value={language} onChange={setLanguage} disabled={!isAdmin} allowDeselect={false} />
        <SettingSwitch
          label="Listings need review"
          description="Publishing a listing sends it to the review queue until an admin approves or rejects it."
          checked={review}
          onChange={setReview}
        />
        <SettingSwitch
          label="Rejecting needs a reason"
          description="Moving an application to Rejected asks for one of the company's rejection reasons."
          checked={reasonRequired}
          onChange={setReasonRequired}
        />
        <SettingsSave saving={saving} saved={saved} submitLabel="Save company settings" onSubmit={save} disabled={!name.trim()} />
      </Stack>
    </Card>
  );
}

type Member = Schemas['Member'];
type Invitation = Schemas['Invitation'];

function Members() {
  const isAdmin = useIsAdmin();
  const session = useSession();
  const members = useLoad(() => call(api.GET('/settings/members', { params: { query: { page: 0, size: 100 } } })), []);
  const invitations = useLoad(() => call(api.GET('/settings/members/invitations', { params: { query: { page: 0, size: 100 } } })), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string | null>('MEMBER');
  const [notice, setNotice] = useState<string>();
  const [removing, setRemoving] = useState<Member>();
  const [cancelling, setCancelling] = useState<Invitation>();
  const inviting = useAction();
  const invite = () => {
    setNotice(undefined);
    void inviting.run(async () => {
      const invited = email.trim();
      await call(api.POST('/settings/members/invitations', { body: { email: invited, role: (role ?? 'MEMBER') as 'MEMBER' | 'ADMIN' } }));
      setEmail('');
      setNotice(`Invited ${invited}.`);
      invitations.reload();
    });
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Members
        </Title>
        <Notice>{notice}</Notice>
        <ResourceTable
          state={members}
          loadingLabel="Loading members"
          empty="No members."
          label="Members"
          minWidth={520}
          rowKey={(member) => member.userId}
          columns={[
            {
              header: 'Person',
              cell: (member) => (
                <>
                  {member.name ?? member.email}
                  <Text size="xs" c="dimmed">
                    {member.email}
                  </Text>
                </>
              ),
            },
            { header: 'Role', cell: (member) => <Badge variant="outline">{member.role}</Badge> },
            { header: 'Joined', cell: (member) => timeAgo(member.joinedAt), title: (member) => formatDate(member.joinedAt) },
            isAdmin && {
              header: 'Actions',
              cell: (member) =>
                member.userId !== session.userId && (
                  <Button size="xs" color="red" variant="light" onClick={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
                    Remove
                  </Button>
                ),
            },
          ]}
        />
        <Title order={3} size="h5">
          Open invitations
        </Title>
        <ResourceTable
          state={invitations}
          loadingLabel="Loading invitations"
          empty="No open invitations."
          label="Open invitations"
          minWidth={520}
          rowKey={(invitation) => invitation.id}
          columns={[
            { header: 'E-mail', cell: (invitation) => invitation.email },
            { header: 'Role', cell: (invitation) => <Badge variant="outline">{invitation.role}</Badge> },
            { header: 'Expires', cell: (invitation) => timeAgo(invitation.expiresAt), title: (invitation) => formatDate(invitation.expiresAt) },
            isAdmin && {
              header: 'Actions',
              cell: (invitation) => (
                <Button size="xs" variant="default" onClick={() => setCancelling(invitation)} aria-label={`Cancel invitation for ${invitation.email}`}>
                  Cancel invitation
                </Button>
              ),
            },
          ]}
        />
        {isAdmin && (
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Invite by e-mail" type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} maxLength={320} style={{ flex: 1, minWidth: 200 }} />
            <Select label="Role" data={['MEMBER', 'ADMIN']} value={role} onChange={setRole} allowDeselect={false} w={140} />
            <Button loading={inviting.busy} disabled={!email.includes('@')} onClick={invite}>
              Invite
            </Button>
          </Group>
        )}
        <ErrorMessage error={inviting.error} title="Could not invite" />
        <Text size="xs" c="dimmed">
          Nothing is sent by e-mail: tell the person to sign in with that address.
        </Text>
      </Stack>
      <ConfirmDialog
        opened={Boolean(removing)}
        onClose={() => setRemoving(undefined)}
        title="Remove member?"
        confirmLabel="Remove member"
        onConfirm={async () => {
          await call(api.DELETE('/settings/members/{userId}', { params: { path: { userId: removing!.userId } } }));
          setNotice(`Removed ${removing!.email}.`);
          members.reload();
        }}
      >
        <Text size="sm">{removing?.name ?? removing?.email} loses access to the company at once: their sessions and tokens stop working.</Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={Boolean(cancelling)}
        onClose={() => setCancelling(undefined)}
        title="Cancel invitation?"
        confirmLabel="Cancel invitation"
        onConfirm={async () => {
          await call(api.DELETE('/settings/members/invitations/{id}', { params: { path: { id: cancelling!.id } } }));
          setNotice(`Cancelled the invitation for ${cancelling!.email}.`);
          invitations.reload();
        }}
      >
        <Text size="sm">{cancelling?.email} can no longer join by signing in.</Text>
      </ConfirmDialog>
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
      <CareersSettings />
      <Members />
    </Page>
  );
}
