import { Alert, Badge, Card, Drawer, Group, Paper, ScrollArea, Select, Stack, Text, Timeline, Title, UnstyledButton } from '@mantine/core';
import { DndContext, KeyboardSensor, PointerSensor, pointerWithin, rectIntersection, useDraggable, useDroppable, useSensor, useSensors, type CollisionDetection, type DragEndEvent } from '@dnd-kit/core';
import { useState } from 'react';
import { api, ApiError, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, Notice } from '../components';
import { ListingPicker, type PickedListing } from '../listing-picker';
import { label, SOURCE_LABELS, STAGE_LABELS, STAGES as STAGE_ORDER } from '../labels';
import { useQueryParam } from '../router';
import { Empty, ErrorMessage, FirstStep, formatDate, LoadState, Page, PageHeader, timeAgo } from '../ui';

type Application = Schemas['ApplicationSummary'];
type Stage = Application['status'];

const STAGES = STAGE_ORDER.map((stage) => ({ stage, label: STAGE_LABELS[stage] }));
// The column under the pointer; the card's rectangle when a keyboard drag has no pointer.
const collision: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length > 0 ? under : rectIntersection(args);
};
const LABEL = STAGE_LABELS;
/** The stages a move into asks for one of the company's reasons, and the kind of reason each takes. */
const REASON_KIND: Partial<Record<Stage, 'REJECTION' | 'WITHDRAWAL'>> = { REJECTED: 'REJECTION', WITHDRAWN: 'WITHDRAWAL' };

/**
 * Rejecting (or marking withdrawn) asks for a reason from the company's list (active ones of that
 * kind); optional unless the company requires one for a rejection.
 */
function ReasonDialog({ name, to, onMove, onClose }: { name: string; to: Stage; onMove: (reasonId: string | undefined) => Promise<unknown>; onClose: () => void }) {
  const kind = REASON_KIND[to]!;
  const reasons = useLoad(() => call(api.GET('/public/v1/rejection-reasons', { params: { query: { kind, active: true, size: 100 } } })), [kind]);
  const company = useLoad(() => call(api.GET('/settings/company')), []);
  const [reasonId, setReasonId] = useState<string | null>(null);
  const required = kind === 'REJECTION' && company.data?.requiresRejectionReason === true;
  return (
    <ConfirmDialog
      opened
      title={to === 'REJECTED' ? `Reject ${name}` : `${name} withdrew`}
      confirmLabel={to === 'REJECTED' ? 'Reject' : 'Mark withdrawn'}
      color={to === 'REJECTED' ? 'red' : 'gray'}
      disabled={!reasons.data || (required && !reasonId)}
      onConfirm={() => onMove(reasonId ?? undefined)}
      onClose={onClose}
    >
      <Select
        label="Reason"
        placeholder={required ? 'Pick a reason' : 'No reason given'}
        description={required ? 'Your company asks for a reason when rejecting.' : undefined}
        data={(reasons.data?.data ?? []).map((reason) => ({ value: reason.id, label: reason.name }))}
        value={reasonId}
        onChange={setReasonId}
        clearable={!required}
        searchable
        required={required}
        comboboxProps={{ withinPortal: true }}
      />
    </ConfirmDialog>
  );
}

function ApplicationCard({ application, onOpen, onMove }: { application: Application; onOpen: () => void; onMove: (to: Stage) => void }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: application.id, data: { application } });
  const name = `${application.candidate.firstName} ${application.candidate.lastName}`;
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      shadow={isDragging ? 'md' : undefined}
      style={{ transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined, zIndex: isDragging ? 10 : undefined, position: 'relative' }}
      data-testid={`card-${application.id}`}
    >
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <UnstyledButton onClick={onOpen} style={{ flex: 1, minWidth: 0 }} aria-label={`Open ${name}`}>
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {application.candidate.headline ?? application.candidate.email}
          </Text>
        </UnstyledButton>
        <UnstyledButton {...listeners} {...attributes} aria-label={`Drag ${name} (space to pick up, arrows to move, space to drop)`} style={{ cursor: 'grab', padding: 4 }}>
          <span aria-hidden>⠿</span>
        </UnstyledButton>
      </Group>
      <Select
        mt={6}
        size="xs"
        aria-label={`Move ${name} to`}
        data={STAGES.map((item) => ({ value: item.stage, label: item.label }))}
        value={application.status}
        onChange={(value) => value && value !== application.status && onMove(value as Stage)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    </Paper>
  );
}

function Column({ stage, label, children, count }: { stage: Stage; label: string; children: React.ReactNode; count: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: stage });
  return (
    <Card ref={setNodeRef} withBorder padding="xs" miw={{ base: 220, md: 128 }} style={{ flex: '1 1 0' }} bg={isOver ? 'indigo.0' : 'gray.0'} component="section" aria-label={`${label}, ${count}`} data-testid={`column-${stage}`} data-over={isOver || undefined}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h6">
          {label}
        </Title>
        <Badge variant="outline" color="gray">
          {count}
        </Badge>
      </Group>
      <Stack gap="xs" mih={80}>
        {children}
      </Stack>
    </Card>
  );
}

function ApplicationDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const application = useLoad(() => call(api.GET('/public/v1/applications/{id}', { params: { path: { id } } })), [id]);
  const history = useLoad(() => call(api.GET('/public/v1/applications/{id}/history', { params: { path: { id }, query: { size: 100 } } })), [id]);
  return (
    <Drawer opened onClose={onClose} title="Application" position="right" size="lg">
      <LoadState state={application} label="Loading the application">
        {(data) => (
          <Stack>
            <Title order={3} size="h4">
              {data.candidate.firstName} {data.candidate.lastName}
            </Title>
            <Text size="sm">
              {data.candidate.email}
              {data.candidate.phone ? ` · ${data.candidate.phone}` : ''}
            </Text>
            {data.candidate.headline && <Text size="sm">{data.candidate.headline}</Text>}
            <Group gap="xs">
              <Badge variant="outline">{LABEL[data.status]}</Badge>
              <Text size="xs" c="dimmed">
                applied {timeAgo(data.appliedAt)} for {data.jobListing.position.value} · source {label(SOURCE_LABELS, data.source).toLowerCase()}
              </Text>
            </Group>
            <Title order={4} size="h5">
              Cover letter
            </Title>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {data.coverLetter ?? 'No cover letter.'}
            </Text>
          </Stack>
        )}
      </LoadState>
      <Title order={4} size="h5" mt="lg" mb="sm">
        Stage history
      </Title>
      <LoadState state={history} label="Loading the history">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No moves yet.</Empty>
          ) : (
            <Timeline bulletSize={14} lineWidth={2} data-testid="history">
              {data.map((change) => (
                <Timeline.Item key={change.id} title={`${change.fromStatus ? `${LABEL[change.fromStatus]} → ` : ''}${LABEL[change.toStatus]}`}>
                  <Text size="xs" c="dimmed">
                    {formatDate(change.changedAt)}
                    {change.changedByApiKeyId ? ' · by an API key' : ''}
                  </Text>
                  {change.rejectionReason && <Text size="sm">Reason: {change.rejectionReason.name}</Text>}
                  {change.reason && <Text size="sm">{change.reason}</Text>}
                </Timeline.Item>
              ))}
            </Timeline>
          )
        }
      </LoadState>
    </Drawer>
  );
}

const LAST_LISTING = 'dashboard.pipeline.listing';

function rememberedListing(): string | null {
  try {
    return localStorage.getItem(LAST_LISTING);
  } catch {
    return null;
  }
}

function rememberListing(id: string): void {
  try {
    localStorage.setItem(LAST_LISTING, id);
  } catch {
    // Storage refused (private mode): the address still keeps the choice.
  }
}

/** The listing to open: the one asked for, else the last one used here, else the newest active one, else the newest. */
async function openingListing(wanted: string | null): Promise<PickedListing | null> {
  for (const id of [wanted, rememberedListing()]) {
    if (!id) continue;
    try {
      const listing = await call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }));
      return { id: listing.id, label: listing.position.value };
    } catch {
      // Deleted, or of another company: fall through to the next choice.
    }
  }
  const active = await call(api.GET('/public/v1/job-listings', { params: { query: { size: 1, status: ['ACTIVE'] } } }));
  const newest = active.data[0] ?? (await call(api.GET('/public/v1/job-listings', { params: { query: { size: 1 } } }))).data[0];
  return newest ? { id: newest.id, label: newest.position.value } : null;
}

export function PipelinePage() {
  // The listing shown is in the address (?listing=), so a reload or a shared link opens it again.
  const [listingParam, setListingParam] = useQueryParam('listing');
  const [pickedHere, setPickedHere] = useState<PickedListing>();
  const opening = useLoad(async () => {
    if (listingParam && pickedHere?.id === listingParam) return pickedHere;
    const found = await openingListing(listingParam);
    if (found && found.id !== listingParam) {
      // Opened by default (or the address named a listing that is gone): the address says which.
      setPickedHere(found);
      setListingParam(found.id);
    }
    return found;
  }, [listingParam]);
  const picked = opening.data ?? null;
  const listing = picked?.id ?? null;
  const pick = (next: PickedListing) => {
    setPickedHere(next);
    rememberListing(next.id);
    setListingParam(next.id, 'push');
  };
  const [open, setOpen] = useState<string>();
  const [conflict, setConflict] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [moved, setMoved] = useState<string>();
  const [local, setLocal] = useState<Application[]>();
  // A move into REJECTED or WITHDRAWN waiting for its reason (ReasonDialog).
  const [asking, setAsking] = useState<{ application: Application; to: Stage }>();
  const applications = useLoad(
    () => (listing ? call(api.GET('/public/v1/applications', { params: { query: { jobListingId: listing, size: 100 } } })) : Promise.resolve(undefined)),
    [listing],
  );
  // The board as shown (a move appears before the server answers); each new answer starts it again.
  const [localOf, setLocalOf] = useState(applications.data);
  if (localOf !== applications.data) {
    setLocalOf(applications.data);
    setLocal(applications.data?.data);
  }
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));

  const move = async (application: Application, to: Stage, reasonId?: string) => {
    setConflict(undefined);
    setError(undefined);
    setMoved(undefined);
    const name = `${application.candidate.firstName} ${application.candidate.lastName}`;
    // Shown at once; put back if the server refuses.
    setLocal((all) => all?.map((item) => (item.id === application.id ? { ...item, status: to } : item)));
    try {
      await call(api.PATCH('/public/v1/applications/{id}/status', { params: { path: { id: application.id } }, body: { status: to, expectedStatus: application.status, ...(reasonId ? { reasonId } : {}) } }));
      setMoved(`${name} moved to ${LABEL[to]}.`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) {
        setConflict(`Someone else moved ${name} first (it is no longer in ${LABEL[application.status]}). The board now shows where it is; move it again if you still want to.`);
      } else {
        setError(caught);
      }
    } finally {
      applications.reload();
    }
  };
  const request = (application: Application, to: Stage) => {
    if (REASON_KIND[to]) setAsking({ application, to });
    else void move(application, to);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const application = event.active.data.current?.application as Application | undefined;
    const to = event.over?.id as Stage | undefined;
    if (application && to && to !== application.status) request(application, to);
  };

  return (
    <Page>
      <PageHeader title="Pipeline" />
      <LoadState state={opening} label="Loading listings">
        {(found) =>
          found === null ? (
            <FirstStep action="Create a job listing" to="/job-listings">
              No job listings yet: create one and publish it to receive applications here.
            </FirstStep>
          ) : (
            <ListingPicker label="Job listing" value={picked} onChange={(next) => next && pick(next)} showStatus width={{ base: '100%', sm: 360 }} />
          )
        }
      </LoadState>
      {conflict && (
        <Alert color="orange" variant="light" title="Moved by someone else" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setConflict(undefined)}>
          {conflict}
        </Alert>
      )}
      <ErrorMessage error={error} title="Could not move the application" />
      <Notice>{moved}</Notice>
      {listing && (
        <LoadState state={applications} label="Loading applications">
          {(loaded) => (
            <>
            {loaded?.data.length === 0 && (
              <FirstStep action="Add candidates" to="/candidates">
                No applications for this listing yet. Publish it so candidates can apply, or add people you already know from Candidates.
              </FirstStep>
            )}
            <DndContext sensors={sensors} onDragEnd={onDragEnd} collisionDetection={collision}>
              <ScrollArea type="auto" offsetScrollbars>
                <Group align="flex-start" wrap="nowrap" gap="sm" pb="sm" role="region" aria-label="Pipeline board" tabIndex={0} data-scrolls-sideways>
                  {STAGES.map(({ stage, label }) => {
                    const items = (local ?? []).filter((item) => item.status === stage);
                    return (
                      <Column key={stage} stage={stage} label={label} count={items.length}>
                        {items.map((item) => (
                          <ApplicationCard key={item.id} application={item} onOpen={() => setOpen(item.id)} onMove={(to) => request(item, to)} />
                        ))}
                      </Column>
                    );
                  })}
                </Group>
              </ScrollArea>
            </DndContext>
            </>
          )}
        </LoadState>
      )}
      {open && <ApplicationDrawer id={open} onClose={() => setOpen(undefined)} />}
      {asking && (
        <ReasonDialog
          name={`${asking.application.candidate.firstName} ${asking.application.candidate.lastName}`}
          to={asking.to}
          onMove={(reasonId) => move(asking.application, asking.to, reasonId)}
          onClose={() => setAsking(undefined)}
        />
      )}
    </Page>
  );
}
