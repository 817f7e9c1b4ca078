// "Explore with sample data": a new company's first step (Overview and Pipeline offer it to an
// admin when the server does), and the banner that says the company shows sample data and removes
// it in one click. The state is the app's (App.tsx provides it), so adding or removing sample data
// on one page shows on every page at once.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { createContext, useContext, useState } from 'react';
import { api, call, type Loaded, type Schemas } from './api';
import { ConfirmDialog, useAction } from './components';
import { plural } from './labels';
import { navigate } from './router';
import { ErrorMessage, useIsAdmin } from './ui';

type SampleData = Schemas['SampleData'];

export interface SampleDataState {
  status: Loaded<SampleData>;
  /** After sample data was added or removed: reads it again and shows the current page afresh. */
  changed: () => void;
}

export const SampleDataContext = createContext<SampleDataState | undefined>(undefined);

function useSampleData(): SampleDataState | undefined {
  return useContext(SampleDataContext);
}

/** The offer, for an admin of a company without sample data on a server that offers it; nothing otherwise. */
export function ExploreWithSampleData() {
  const sample = useSampleData();
  const isAdmin = useIsAdmin();
  const action = useAction();
  const data = sample?.status.data;
  if (!sample || !isAdmin || !data?.offered || data.present) return null;
  const explore = () =>
    action.run(async () => {
      await call(api.POST('/settings/sample-data'));
      sample.changed();
      navigate('/pipeline');
    });
  return (
    <Stack gap="xs" align="center" data-testid="explore-sample-data">
      <Text size="sm" c="dimmed" ta="center" maw={520}>
        Or look around first: fill your company with made-up job listings and candidates in every stage. You can remove them in one click.
      </Text>
      <Button onClick={() => void explore()} loading={action.busy}>
        Explore with sample data
      </Button>
      <ErrorMessage error={action.error} title="Sample data could not be added" />
    </Stack>
  );
}

/** Above every page while the company has sample data: says so, and removes it (after a confirmation) for an admin. */
export function SampleDataBanner() {
  const sample = useSampleData();
  const isAdmin = useIsAdmin();
  const [confirming, setConfirming] = useState(false);
  const data = sample?.status.data;
  if (!sample || !data?.present) return null;
  return (
    <Alert color="blue" variant="light" mb="md" role="status" data-testid="sample-data-banner" title="You are looking at sample data">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {plural(data.jobListings, 'job listing')} and {plural(data.candidates, 'candidate')} are made up, to show how things work. Everything you add yourself stays when you remove them.
        </Text>
        {isAdmin && (
          <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
            Remove sample data
          </Button>
        )}
      </Group>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Remove sample data?"
        confirmLabel="Remove sample data"
        onConfirm={async () => {
          await call(api.DELETE('/settings/sample-data'));
          sample.changed();
          navigate('/');
        }}
      >
        <Text size="sm">
          The sample job listings and candidates go, with their applications, notes and files, including anything you added to them. Your own listings and candidates stay as they are.
        </Text>
      </ConfirmDialog>
    </Alert>
  );
}
