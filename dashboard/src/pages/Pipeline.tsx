import { Alert, Badge, Button, Card, Checkbox, Drawer, Group, Kbd, Modal, Paper, ScrollArea, Select, Stack, Table, Text, Timeline, Title, UnstyledButton } from '@mantine/core';
import {
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useEffect, useState } from 'react';
import { api, ApiError, call, useLoad, type Schemas } from '../api';
import { ConfirmDialog, Notice } from '../components';
import { ListingPicker, type PickedListing } from '../listing-picker';
import { label, plural, SOURCE_LABELS, STAGE_LABELS, STAGES as STAGE_ORDER } from '../labels';
import { useQueryParam } from '../router';
import { ExploreWithSampleData } from '../sample-data';
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

/**
 * The keyboard moves a picked-up card one column per arrow press (Space, →, Space moves it one
 * stage on), not a few pixels per press.
 */
const columnByColumn: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === KeyboardCode.Right ? 1 : event.code === KeyboardCode.Left ? -1 : 0;
  const card = context.collisionRect;
  if (step === 0 || !card) return undefined;
  event.preventDefault();
  const from = (context.over?.id ?? (context.active?.data.current?.application as Application | undefined)?.status) as Stage | undefined;
  const index = from ? STAGE_ORDER.indexOf(from) : -1;
  const next = STAGE_ORDER[Math.min(STAGE_ORDER.length - 1, Math.max(0, index + step))];
  const target = next ? context.droppableRects.get(next) : undefined;
  if (!target) return currentCoordinates;
  return { x: target.left + (target.width - card.width) / 2, y: Math.max(currentCoordinates.y, target.top + 8) };
};

const nameOf = (application: Application | undefined) => (application ? `${application.candidate.firstName} ${application.candidate.lastName}` : 'The application');
const stageOf = (id: unknown) => (typeof id === 'string' && id in STAGE_LABELS ? STAGE_LABELS[id as Stage] : undefined);
/** What a screen reader hears while a card is moved: names and stages in words, never ids. */
const announcements: Announcements = {
  onDragStart: ({ active }) => {
    const application = active.data.current?.application as Application | undefined;
    return `Picked up ${nameOf(application)}, in ${application ? STAGE_LABELS[application.status] : 'its stage'}. Left and right arrows choose the stage, space drops, escape cancels.`;
  },
  onDragOver: ({ active, over }) => (over ? `${nameOf(active.data.current?.application as Application | undefined)} is over ${stageOf(over.id)}.` : undefined),
  onDragEnd: ({ active, over }) => (over ? `${nameOf(active.data.current?.application as Application | undefined)} dropped in ${stageOf(over.id)}.` : 'Dropped outside the board: nothing moved.'),
  onDragCancel: ({ active }) => `Moving ${nameOf(active.data.current?.application as Application | undefined)} was cancelled.`,
};
const screenReaderInstructions = { draggable: 'To move this application, press space, then the left or right arrow to choose the stage, and space again to drop it there. Escape cancels.' };
/** The stages a move into asks for one of the company's reasons, and the kind of reason each takes. */
const REASON_KIND: Partial<Record<Stage, 'REJECTION' | 'WITHDRAWAL'>> = { REJECTED: 'REJECTION', WITHDRAWN: 'WITHDRAWAL' };

/**
 * Rejecting (or marking withdrawn) asks for a reason from the company's list (active ones of that
 * kind); optional unless the company requires one for a rejection.
 */
export function ReasonDialog({ name, to, onMove, onClose }: { name: string; to: Stage; onMove: (reasonId: string | undefined) => Promise<unknown>; onClose: () => void }) {
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

const DAY_MS = 24 * 60 * 60 * 1000;
const SHORTCUTS: Array<[keys: string[], what: string]> = [
  [['?'], 'Show these shortcuts'],
  [['/'], 'Search the job listings'],
  [['Space'], "On a card's drag handle: pick the card up, and drop it"],
  [['←', '→'], 'While a card is picked up: the previous or next stage'],
  [['Esc'], 'Cancel a move; clear the selection'],
];
const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });

/**
 * How long the application has been in its stage: from its last change (updatedAt, which a move
 * sets; only an erasure also changes it), in whole days.
 */
function daysInStage(application: Application, now: number): string {
  const days = Math.floor((now - Date.parse(application.updatedAt)) / DAY_MS);
  return days < 1 ? 'in stage since today' : `${plural(days, 'day')} in stage`;
}

function ApplicationCard({
  application,
  onOpen,
  onMove,
  selected,
  onSelect,
  now,
}: {
  application: Application;
  onOpen: () => void;
  onMove: (to: Stage) => void;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  now: number;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: application.id, data: { application } });
  const name = `${application.candidate.firstName} ${application.candidate.lastName}`;
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      // While dragged it stays where it was, faded; the overlay (above the board, never clipped by it) follows the pointer.
      style={{ opacity: isDragging ? 0.4 : undefined, position: 'relative' }}
      data-testid={`card-${application.id}`}
    >
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <Checkbox size="xs" aria-label={`Select ${name}`} checked={selected} onChange={(event) => onSelect(event.currentTarget.checked)} />
        <UnstyledButton onClick={onOpen} style={{ flex: 1, minWidth: 0 }} aria-label={`Open ${name}`}>
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {application.candidate.headline ?? application.candidate.email}
          </Text>
        </UnstyledButton>
        <UnstyledButton {...listeners} {...attributes} aria-label={`Drag ${name} (space to pick up, left and right arrows to choose the stage, space to drop)`} style={{ cursor: 'grab', padding: 4 }}>
          <span aria-hidden>⠿</span>
        </UnstyledButton>
      </Group>
      <Text size="xs" c="dimmed" data-testid="card-times">
        Applied {shortDate.format(new Date(application.appliedAt))} · {daysInStage(application, now)}
      </Text>
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
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: columnByColumn }));
  const [dragged, setDragged] = useState<Application>();
  const [now] = useState(() => Date.now());
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkTo, setBulkTo] = useState<string | null>(null);
  const [bulkAsking, setBulkAsking] = useState<Stage>();
  const [help, setHelp] = useState(false);
  const chosen = (local ?? []).filter((item) => selected.has(item.id));
  const select = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // Shortcuts, listed in the help dialog: ? opens it, / goes to the listing search, Escape clears the selection. Not while typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.closest('input, textarea, select, [contenteditable="true"]') || target.closest('[role="dialog"]'))) return;
      if (event.key === '?') {
        event.preventDefault();
        setHelp(true);
      } else if (event.key === '/') {
        event.preventDefault();
        document.querySelector<HTMLInputElement>('[data-listing-picker] input')?.focus();
      } else if (event.key === 'Escape') {
        setSelected(new Set());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  /** Moves every selected application (each with the stage it was seen in), then says how many moved. */
  const moveSelected = async (to: Stage, reasonId?: string) => {
    setConflict(undefined);
    setError(undefined);
    setMoved(undefined);
    const moving = chosen.filter((item) => item.status !== to);
    setLocal((all) => all?.map((item) => (moving.some((one) => one.id === item.id) ? { ...item, status: to } : item)));
    const results = await Promise.allSettled(
      moving.map((item) =>
        call(api.PATCH('/public/v1/applications/{id}/status', { params: { path: { id: item.id } }, body: { status: to, expectedStatus: item.status, ...(reasonId ? { reasonId } : {}) } })),
      ),
    );
    const failed = results.filter((result) => result.status === 'rejected');
    setMoved(`${plural(results.length - failed.length, 'application')} moved to ${LABEL[to]}.`);
    if (failed.length > 0) setConflict(`${plural(failed.length, 'application')} could not be moved (someone else moved them first, or the move is not allowed). The board now shows where they are.`);
    setSelected(new Set());
    setBulkTo(null);
    applications.reload();
  };
  const requestSelected = (to: Stage) => {
    if (REASON_KIND[to]) setBulkAsking(to);
    else void moveSelected(to);
  };

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
    setDragged(undefined);
    const application = event.active.data.current?.application as Application | undefined;
    const to = event.over?.id as Stage | undefined;
    if (application && to && to !== application.status) request(application, to);
  };

  return (
    <Page>
      <PageHeader title="Pipeline">
        <Button variant="subtle" size="compact-sm" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          Keyboard shortcuts
        </Button>
      </PageHeader>
      <LoadState state={opening} label="Loading listings">
        {(found) =>
          found === null ? (
            <>
              <FirstStep action="Create a job listing" to="/job-listings">
                No job listings yet: create one and publish it to receive applications here.
              </FirstStep>
              <ExploreWithSampleData />
            </>
          ) : (
            <div data-listing-picker>
              <ListingPicker label="Job listing" value={picked} onChange={(next) => next && pick(next)} showStatus width={{ base: '100%', sm: 360 }} />
            </div>
          )
        }
      </LoadState>
      {conflict && (
        <Alert color="orange" variant="light" title="Moved by someone else" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setConflict(undefined)}>
          {conflict}
        </Alert>
      )}
      <ErrorMessage error={error} title="Could not move the application" />
      {chosen.length > 0 && (
        <Paper withBorder p="xs" role="region" aria-label="Selected applications">
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Text size="sm" fw={600}>
              {plural(chosen.length, 'application')} selected
            </Text>
            <Select
              size="xs"
              label="Move selected to"
              data={STAGES.filter((item) => !REASON_KIND[item.stage]).map((item) => ({ value: item.stage, label: item.label }))}
              value={bulkTo}
              onChange={(value) => {
                setBulkTo(value);
                if (value) requestSelected(value as Stage);
              }}
              w={160}
              comboboxProps={{ withinPortal: true }}
            />
            <Button size="xs" color="red" variant="light" onClick={() => requestSelected('REJECTED')}>
              Reject selected
            </Button>
            <Button size="xs" variant="default" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
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
            <DndContext
              sensors={sensors}
              onDragStart={(event) => setDragged(event.active.data.current?.application as Application | undefined)}
              onDragCancel={() => setDragged(undefined)}
              onDragEnd={onDragEnd}
              collisionDetection={collision}
              accessibility={{ announcements, screenReaderInstructions }}
            >
              <ScrollArea type="auto" offsetScrollbars>
                <Group align="flex-start" wrap="nowrap" gap="sm" pb="sm" role="region" aria-label="Pipeline board" aria-busy={applications.loading} tabIndex={0} data-scrolls-sideways>
                  {STAGES.map(({ stage, label }) => {
                    const items = (local ?? []).filter((item) => item.status === stage);
                    return (
                      <Column key={stage} stage={stage} label={label} count={items.length}>
                        {items.map((item) => (
                          <ApplicationCard
                            key={item.id}
                            application={item}
                            onOpen={() => setOpen(item.id)}
                            onMove={(to) => request(item, to)}
                            selected={selected.has(item.id)}
                            onSelect={(on) => select(item.id, on)}
                            now={now}
                          />
                        ))}
                      </Column>
                    );
                  })}
                </Group>
              </ScrollArea>
              <DragOverlay dropAnimation={null}>
                {dragged && (
                  <Paper withBorder shadow="md" p="xs" data-testid="drag-overlay" style={{ cursor: 'grabbing' }}>
                    <Text size="sm" fw={600} truncate>
                      {nameOf(dragged)}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {dragged.candidate.headline ?? dragged.candidate.email}
                    </Text>
                  </Paper>
                )}
              </DragOverlay>
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
      {bulkAsking && <ReasonDialog name={plural(chosen.length, 'application')} to={bulkAsking} onMove={(reasonId) => moveSelected(bulkAsking, reasonId)} onClose={() => setBulkAsking(undefined)} />}
      <Modal opened={help} onClose={() => setHelp(false)} title="Keyboard shortcuts">
        <Table>
          <Table.Tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <Table.Tr key={what}>
                <Table.Td>
                  {keys.map((key) => (
                    <Kbd key={key} mr={4}>
                      {key}
                    </Kbd>
                  ))}
                </Table.Td>
                <Table.Td>{what}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </Page>
  );
}
