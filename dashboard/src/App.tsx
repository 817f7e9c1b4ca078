import { AppShell, Burger, Button, Group, NavLink, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState, type MouseEvent } from 'react';
import { api, call, useLoad } from './api';
import { currentUser, ensureSignedIn, signOut } from './auth';
import { href, navigate, usePath } from './router';
import { ErrorMessage, Loading, SessionContext, type Session } from './ui';
import { OverviewPage } from './pages/Overview';
import { ApiKeysPage } from './pages/ApiKeys';
import { WebhooksPage } from './pages/Webhooks';
import { ListingsPage } from './pages/Listings';
import { PipelinePage } from './pages/Pipeline';
import { CandidatesPage } from './pages/Candidates';
import { SettingsPage } from './pages/Settings';
import { AuditLogPage } from './pages/AuditLog';
import { SampleDataBanner, SampleDataContext, type SampleDataState } from './sample-data';

const PAGES = [
  { path: '/', label: 'Overview', Component: OverviewPage },
  { path: '/job-listings', label: 'Job listings', Component: ListingsPage },
  { path: '/pipeline', label: 'Pipeline', Component: PipelinePage },
  { path: '/candidates', label: 'Candidates', Component: CandidatesPage },
  { path: '/api-keys', label: 'API keys', Component: ApiKeysPage },
  { path: '/webhooks', label: 'Webhooks', Component: WebhooksPage, adminOnly: true },
  { path: '/settings', label: 'Settings', Component: SettingsPage },
  { path: '/settings/audit-log', label: 'Audit log', Component: AuditLogPage, adminOnly: true },
] as const;

async function loadSession(): Promise<Session> {
  await ensureSignedIn();
  const user = await currentUser();
  const [members, company] = await Promise.all([
    call(api.GET('/settings/members', { params: { query: { page: 0, size: 100 } } })),
    call(api.GET('/settings/company')),
  ]);
  const me = members.data.find((member) => member.userId === user.sub);
  return { email: user.email, name: user.name, userId: user.sub, role: me?.role ?? 'MEMBER', companyName: company.name };
}

export function App() {
  const [session, setSession] = useState<Session>();
  const [error, setError] = useState<unknown>();
  const [opened, { toggle, close }] = useDisclosure();
  const path = usePath();
  // Whether the company has sample data (the banner, the offer); read once signed in. `shown` counts
  // its changes: the page is shown afresh after each, so its figures include (or leave out) the sample.
  const [shown, setShown] = useState(0);
  const sampleStatus = useLoad(async () => (session ? call(api.GET('/settings/sample-data')) : undefined), [session]);
  const sample: SampleDataState = {
    status: sampleStatus as SampleDataState['status'],
    changed: () => {
      sampleStatus.reload();
      setShown((n) => n + 1);
    },
  };

  useEffect(() => {
    loadSession().then(setSession, setError);
  }, []);

  if (error) {
    return (
      <main style={{ padding: 24 }}>
        <ErrorMessage error={error} title="Could not sign in" />
        <Button mt="md" onClick={() => window.location.assign(href('/'))}>
          Try again
        </Button>
      </main>
    );
  }
  if (!session) {
    return (
      <main>
        <Loading label="Signing in" />
      </main>
    );
  }

  const page = PAGES.find((candidate) => candidate.path === path) ?? PAGES.find((candidate) => candidate.path !== '/' && path.startsWith(candidate.path)) ?? PAGES[0];
  const go = (event: MouseEvent<HTMLElement>, to: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
    close();
  };
  const Current = page.Component;

  return (
    <SessionContext.Provider value={session}>
      <SampleDataContext.Provider value={sample}>
        <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
          <AppShell.Header>
            <Group h="100%" px="md" justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
                <Title order={2} size="h4">
                  {session.companyName}
                </Title>
              </Group>
              <Group gap="sm" wrap="nowrap">
                <Text size="sm" c="dimmed" visibleFrom="sm">
                  {session.email} · {session.role === 'ADMIN' ? 'Admin' : 'Member'}
                </Text>
                <Button variant="default" size="xs" onClick={() => void signOut()}>
                  Sign out
                </Button>
              </Group>
            </Group>
          </AppShell.Header>
          <AppShell.Navbar p="xs" aria-label="Main">
            <nav>
              <VisuallyHidden>
                <h2>Pages</h2>
              </VisuallyHidden>
              {PAGES.filter((candidate) => session.role === 'ADMIN' || !('adminOnly' in candidate)).map((candidate) => (
                <NavLink
                  key={candidate.path}
                  href={href(candidate.path)}
                  label={candidate.label}
                  active={candidate === page}
                  aria-current={candidate === page ? 'page' : undefined}
                  onClick={(event) => go(event, candidate.path)}
                />
              ))}
            </nav>
          </AppShell.Navbar>
          <AppShell.Main>
            <SampleDataBanner />
            <Current key={`${page.path}#${shown}`} />
          </AppShell.Main>
        </AppShell>
      </SampleDataContext.Provider>
    </SessionContext.Provider>
  );
}
