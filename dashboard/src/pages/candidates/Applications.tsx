// The candidate's applications on the profile: each listing's title and stage in words, with a move
// to another stage and a rejection, which asks for one of the company's reasons (as the pipeline does).
import { Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ApiError, call, useLoad, type Schemas } from '../../api';
import { Notice } from '../../components';
import { ReasonDialog } from '../Pipeline';
import { Empty, ErrorMessage, formatDate } from '../../ui';
import { useListingTitles } from './listing-titles';
import { STAGE_LABELS, STAGES, type Stage } from '../../labels';
import { sourceLabel } from './words';

type Application = Schemas['CandidateApplication'];
const ASKS_REASON: Stage[] = ['REJECTED', 'WITHDRAWN'];

/**
 * Why a rejected or withdrawn application left: the last move's reason, from the history (the
 * profile's application summary carries no reason).
 */
function ReasonGiven({ application }: { application: Application }) {
  const last = useLoad(
    () => call(api.GET('/public/v1/applications/{id}/history', { params: { path: { id: application.id }, query: { size: 1 } } })),
    [application.id, application.status, application.updatedAt],
  );
  const move = last.data?.data[0];
  const words = [move?.rejectionReason?.name, move?.reason].filter(Boolean).join(' · ');
  if (!words) return null;
  return (
    <Text size="sm" mt={4} data-testid="reason-given">
      Reason: {words}
    </Text>
  );
}

export function Applications({ name, applications, onChanged }: { name: string; applications: Application[]; onChanged: () => void }) {
  const titles = useListingTitles(applications.map((application) => application.jobListingId));
  const [asking, setAsking] = useState<{ application: Application; to: Stage }>();
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();

  const move = async (application: Application, to: Stage, reasonId?: string) => {
    setError(undefined);
    setDone(undefined);
    const title = titles.get(application.jobListingId) ?? 'the listing';
    try {
      await call(
        api.PATCH('/public/v1/applications/{id}/status', {
          params: { path: { id: application.id } },
          body: { status: to, expectedStatus: application.status, ...(reasonId ? { reasonId } : {}) },
        }),
      );
      setDone(`${name} moved to ${STAGE_LABELS[to]} for ${title}.`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) {
        setError(new Error(`Someone else moved ${name} first (no longer in ${STAGE_LABELS[application.status]}). The profile now shows where it is; move it again if you still want to.`));
      } else if (ASKS_REASON.includes(to)) {
        throw caught; // shown in the reason dialog, which stays open
      } else {
        setError(caught);
      }
    } finally {
      onChanged();
    }
  };
  const request = (application: Application, to: Stage) => {
    if (ASKS_REASON.includes(to)) setAsking({ application, to });
    else void move(application, to);
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="profile-applications">
      <Title order={4} size="h5" id="profile-applications">
        Applications
      </Title>
      <ErrorMessage error={error} title="Could not move the application" />
      <Notice>{done}</Notice>
      {applications.length === 0 ? (
        <Empty>No applications yet.</Empty>
      ) : (
        applications.map((application) => {
          const title = titles.get(application.jobListingId) ?? '…';
          return (
            <Paper key={application.id} withBorder p="sm" data-testid={`profile-application-${application.id}`}>
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                <div>
                  <Text fw={600} size="sm">
                    {title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Applied {formatDate(application.appliedAt)} · {sourceLabel(application.source)}
                  </Text>
                </div>
                <Badge variant="light" tt="none" data-testid="stage">
                  {STAGE_LABELS[application.status]}
                </Badge>
              </Group>
              {ASKS_REASON.includes(application.status) && <ReasonGiven application={application} />}
              <Group mt="xs" gap="xs" align="flex-end" wrap="wrap">
                <Select
                  size="xs"
                  label={`Move to`}
                  aria-label={`Move ${name} (${title}) to`}
                  data={STAGES.map((stage) => ({ value: stage, label: STAGE_LABELS[stage] }))}
                  value={application.status}
                  onChange={(value) => value && value !== application.status && request(application, value as Stage)}
                  allowDeselect={false}
                  w={160}
                  comboboxProps={{ withinPortal: true }}
                />
                {application.status !== 'REJECTED' && (
                  <Button size="xs" variant="light" color="red" onClick={() => request(application, 'REJECTED')} aria-label={`Reject ${name} for ${title}`}>
                    Reject
                  </Button>
                )}
              </Group>
            </Paper>
          );
        })
      )}
      {asking && (
        <ReasonDialog name={name} to={asking.to} onMove={(reasonId) => move(asking.application, asking.to, reasonId)} onClose={() => setAsking(undefined)} />
      )}
    </Stack>
  );
}
