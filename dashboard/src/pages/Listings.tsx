import {
  Badge,
  Button,
  Checkbox,
  Drawer,
  Group,
  Menu,
  Modal,
  MultiSelect,
  NumberInput,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { api, call, useLoad, type Schemas } from '../api';
import { Empty, ErrorMessage, formatDate, Loading, LoadState, Page, PageHeader, ScrollTable, timeAgo, useIsAdmin } from '../ui';

type Listing = Schemas['JobListing'];
type Status = Listing['status'];
type Text = NonNullable<Listing['jobDescription']>;

const STATUS_COLOR: Record<Status, string> = { DRAFT: 'gray', ACTIVE: 'green', UNDER_REVIEW: 'orange', CLOSED: 'red', ARCHIVED: 'gray' };
const PAGE_SIZE = 20;
const EDUCATION = ['NONE', 'PRIMARY', 'SECONDARY', 'VOCATIONAL', 'ASSOCIATE', 'BACHELOR', 'MASTER', 'DOCTORATE'];
const INTERVALS = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

export function StatusBadge({ status }: { status: Status }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="outline">
      {status.replace('_', ' ')}
    </Badge>
  );
}

/** The editable fields, as form strings. */
interface Form {
  position: string;
  positionType: string;
  workPlaceType: string;
  language: string;
  sectorId: string | null;
  tagIds: string[];
  city: string;
  country: string;
  startDate: string;
  jobDescription: string;
  requirementsSummary: string;
  personalQualitiesSummary: string;
  currency: string;
  salaryBase: number | string;
  salaryMax: number | string;
  salaryType: string | null;
  paymentInterval: string | null;
  salaryDescription: string;
  benefits: string;
  educationLevel: string | null;
  fieldOfStudy: string;
  yearsOfExperience: number | string;
  numberOfPositionsOpened: number | string;
  availableForEveryCountry: boolean;
  jobListingEndDate: string;
  referenceNumber: string;
  requirements: string;
}

const EMPTY: Form = {
  position: '',
  positionType: 'FULL_TIME',
  workPlaceType: 'ON_SITE',
  language: '',
  sectorId: null,
  tagIds: [],
  city: '',
  country: '',
  startDate: '',
  jobDescription: '',
  requirementsSummary: '',
  personalQualitiesSummary: '',
  currency: '',
  salaryBase: '',
  salaryMax: '',
  salaryType: null,
  paymentInterval: null,
  salaryDescription: '',
  benefits: '',
  educationLevel: null,
  fieldOfStudy: '',
  yearsOfExperience: '',
  numberOfPositionsOpened: '',
  availableForEveryCountry: false,
  jobListingEndDate: '',
  referenceNumber: '',
  requirements: '',
};

const original = (text: Text | null | undefined) => text?.original ?? '';

function formOf(listing: Listing): Form {
  return {
    position: listing.position.original,
    positionType: listing.positionType,
    workPlaceType: listing.workPlaceType,
    language: listing.position.sourceLanguage,
    sectorId: listing.sectorId,
    tagIds: listing.jobListingTags.map((tag) => tag.tagId),
    city: listing.address?.city ?? '',
    country: listing.address?.country ?? '',
    startDate: listing.startDate ?? '',
    jobDescription: original(listing.jobDescription),
    requirementsSummary: original(listing.requirementsSummary),
    personalQualitiesSummary: original(listing.personalQualitiesSummary),
    currency: listing.currency ?? '',
    salaryBase: listing.salaryBase ?? '',
    salaryMax: listing.salaryMax ?? '',
    salaryType: listing.salaryType,
    paymentInterval: listing.paymentInterval,
    salaryDescription: original(listing.salaryDescription),
    benefits: listing.benefits.map((benefit) => benefit.original).join('\n'),
    educationLevel: listing.educationLevel,
    fieldOfStudy: original(listing.fieldOfStudy),
    yearsOfExperience: listing.yearsOfExperience ?? '',
    numberOfPositionsOpened: listing.numberOfPositionsOpened ?? '',
    availableForEveryCountry: listing.availableForEveryCountry ?? false,
    jobListingEndDate: listing.jobListingEndDate ?? '',
    referenceNumber: listing.referenceNumber ?? '',
    requirements: listing.jobListingRequirements.map((requirement) => requirement.requirementText).join('\n'),
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const numberOrNull = (value: number | string) => (value === '' || value === null ? null : Number(value));
const lines = (value: string) => value.split('\n').map((line) => line.trim()).filter(Boolean);

/** The request body for the form: every field on create, only the changed ones on edit. */
function bodyOf(form: Form, before: Form | undefined): Record<string, unknown> {
  const full: Record<string, unknown> = {
    position: form.position.trim(),
    positionType: form.positionType,
    workPlaceType: form.workPlaceType,
    sectorId: form.sectorId,
    jobListingTags: form.tagIds.map((tagId) => ({ tagId })),
    address: form.city || form.country ? { city: orNull(form.city), country: orNull(form.country.toUpperCase()) } : null,
    isStartDate: form.startDate ? true : null,
    startDate: orNull(form.startDate),
    jobDescription: orNull(form.jobDescription),
    requirementsSummary: orNull(form.requirementsSummary),
    personalQualitiesSummary: orNull(form.personalQualitiesSummary),
    currency: orNull(form.currency),
    salaryBase: numberOrNull(form.salaryBase),
    isSalaryMax: form.salaryMax === '' ? null : true,
    salaryMax: numberOrNull(form.salaryMax),
    salaryType: form.salaryType,
    paymentInterval: form.paymentInterval,
    salaryDescription: orNull(form.salaryDescription),
    benefits: lines(form.benefits),
    educationLevel: form.educationLevel,
    fieldOfStudy: orNull(form.fieldOfStudy),
    yearsOfExperience: numberOrNull(form.yearsOfExperience),
    numberOfPositionsOpened: numberOrNull(form.numberOfPositionsOpened),
    availableForEveryCountry: form.availableForEveryCountry,
    jobListingEndDate: orNull(form.jobListingEndDate),
    referenceNumber: orNull(form.referenceNumber),
    jobListingRequirements: lines(form.requirements).map((requirementText) => ({ requirementText })),
  };
  if (!before) return form.language.trim() ? { ...full, language: form.language.trim() } : full;
  const old = bodyOf(before, undefined);
  // Only what changed: an unchanged text keeps its translations.
  return Object.fromEntries(Object.entries(full).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(old[key])));
}

function ListingForm({ listing, onSaved, onClose }: { listing: Listing | undefined; onSaved: (listing: Listing) => void; onClose: () => void }) {
  const before = useMemo(() => (listing ? formOf(listing) : undefined), [listing]);
  const [form, setForm] = useState<Form>(before ?? EMPTY);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const enums = useLoad(() => call(api.GET('/public/v1/enums')), []);
  const sectors = useLoad(() => call(api.GET('/public/v1/sectors')), []);
  const tags = useLoad(() => call(api.GET('/public/v1/tags')), []);
  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));
  const text = (key: keyof Form) => ({
    value: form[key] as string,
    onChange: (event: { currentTarget: { value: string } }) => set(key)(event.currentTarget.value as never),
  });

  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = bodyOf(form, before);
      const saved = listing
        ? await call(api.PATCH('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, body: body as never }))
        : await call(api.POST('/public/v1/job-listings', { body: body as never }));
      onSaved(saved as Listing);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <TextInput label="Position" required withAsterisk={false} maxLength={300} {...text('position')} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Position type" data={enums.data?.PositionType ?? [form.positionType]} value={form.positionType} onChange={(value) => set('positionType')(value ?? 'FULL_TIME')} allowDeselect={false} />
        <Select label="Workplace" data={enums.data?.WorkPlaceType ?? [form.workPlaceType]} value={form.workPlaceType} onChange={(value) => set('workPlaceType')(value ?? 'ON_SITE')} allowDeselect={false} />
        {!listing && <TextInput label="Language of the texts" description="BCP 47, e.g. en; empty: the company's default" maxLength={35} {...text('language')} />}
        <Select
          label="Sector"
          searchable
          clearable
          data={(sectors.data ?? []).map((sector) => ({ value: sector.id, label: sector.name }))}
          value={form.sectorId}
          onChange={set('sectorId')}
        />
      </SimpleGrid>
      <MultiSelect
        label="Tags"
        searchable
        data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.name} (${tag.tagType.toLowerCase().replace('_', ' ')})` }))}
        value={form.tagIds}
        onChange={set('tagIds')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="City" maxLength={200} {...text('city')} />
        <TextInput label="Country (ISO code)" maxLength={2} {...text('country')} />
        <TextInput label="Start date" type="date" {...text('startDate')} />
        <TextInput label="Listing end date" type="date" {...text('jobListingEndDate')} />
      </SimpleGrid>
      <Textarea label="Job description" autosize minRows={3} maxLength={20000} {...text('jobDescription')} />
      <Textarea label="Requirements summary" autosize minRows={2} maxLength={10000} {...text('requirementsSummary')} />
      <Textarea label="Personal qualities" autosize minRows={2} maxLength={10000} {...text('personalQualitiesSummary')} />
      <Textarea label="Requirements (one per line)" autosize minRows={2} {...text('requirements')} />
      <Textarea label="Benefits (one per line)" autosize minRows={2} {...text('benefits')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="Currency" placeholder="EUR" maxLength={3} {...text('currency')} />
        <NumberInput label="Salary from" min={0} value={form.salaryBase} onChange={set('salaryBase')} />
        <NumberInput label="Salary up to" min={0} value={form.salaryMax} onChange={set('salaryMax')} />
        <Select label="Gross or net" data={['GROSS', 'NET']} clearable value={form.salaryType} onChange={set('salaryType')} />
        <Select label="Paid" data={INTERVALS} clearable value={form.paymentInterval} onChange={set('paymentInterval')} />
        <TextInput label="Reference number" maxLength={100} {...text('referenceNumber')} />
      </SimpleGrid>
      <TextInput label="Salary note" maxLength={2000} {...text('salaryDescription')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Education" data={EDUCATION} clearable value={form.educationLevel} onChange={set('educationLevel')} />
        <TextInput label="Field of study" maxLength={300} {...text('fieldOfStudy')} />
        <NumberInput label="Years of experience" min={0} max={70} value={form.yearsOfExperience} onChange={set('yearsOfExperience')} />
        <NumberInput label="Open positions" min={1} value={form.numberOfPositionsOpened} onChange={set('numberOfPositionsOpened')} />
      </SimpleGrid>
      <Checkbox label="Candidates from any country may apply" checked={form.availableForEveryCountry} onChange={(event) => set('availableForEveryCountry')(event.currentTarget.checked)} />
      <ErrorMessage error={error} title="Could not save the listing" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={save} loading={busy} disabled={!form.position.trim()}>
          {listing ? 'Save changes' : 'Create listing'}
        </Button>
      </Group>
    </Stack>
  );
}

const TRANSLATABLE = [
  ['position', 'Position'],
  ['jobDescription', 'Job description'],
  ['requirementsSummary', 'Requirements summary'],
  ['personalQualitiesSummary', 'Personal qualities'],
  ['salaryDescription', 'Salary note'],
  ['fieldOfStudy', 'Field of study'],
] as const;

function TranslationType({ text }: { text: { translated: boolean; translationType: 'HUMAN' | 'AI' | null } }) {
  if (!text.translated) return <Badge variant="outline" color="gray">not translated</Badge>;
  return (
    <Badge variant="outline" color={text.translationType === 'AI' ? 'grape' : 'teal'}>
      {text.translationType === 'AI' ? 'AI translation' : 'Human translation'}
    </Badge>
  );
}

function Translations({ listing }: { listing: Listing }) {
  const isAdmin = true;
  const [language, setLanguage] = useState('de');
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const valid = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language) && language.toLowerCase() !== listing.position.sourceLanguage.toLowerCase();
  const shown = useLoad(
    () =>
      valid
        ? call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } }, headers: { 'accept-language': language } })).then((data) => {
            const texts = data as Listing;
            setDraft(
              Object.fromEntries(
                TRANSLATABLE.map(([key]) => {
                  const value = texts[key] as Text | null;
                  return [key, value?.translated ? value.value : ''];
                }),
              ),
            );
            return texts;
          })
        : Promise.resolve(undefined),
    [language, listing.id, listing.updatedAt],
  );
  const present = TRANSLATABLE.filter(([key]) => listing[key]);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const body = Object.fromEntries(Object.entries(draft).filter(([key, value]) => value.trim() && present.some(([k]) => k === key)));
      await call(api.PUT('/public/v1/job-listings/{id}/translations/{lang}', { params: { path: { id: listing.id, lang: language } }, body: body as never }));
      setSaved(true);
      shown.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Text size="sm">
        Texts are written in <strong>{listing.position.sourceLanguage}</strong>. A translation you enter here is a human translation; machine
        translations (when the server has a translator) are marked as AI.
      </Text>
      <Select
        label="Translate into"
        searchable
        data={['de', 'fr', 'it', 'es', 'nl', 'pt', 'en', 'pl'].filter((tag) => tag !== listing.position.sourceLanguage)}
        value={language}
        onChange={(value) => value && setLanguage(value)}
        allowDeselect={false}
      />
      {!valid && <Text c="red.9">Choose a language other than the source language.</Text>}
      {valid && shown.loading && !shown.data && <Loading label="Loading the translation" />}
      {valid &&
        shown.data &&
        present.map(([key, label]) => {
          const text = shown.data![key] as Text;
          const Field = key === 'position' || key === 'fieldOfStudy' ? TextInput : Textarea;
          return (
            <Stack key={key} gap={4}>
              <Group gap="xs">
                <Text size="sm" fw={500}>
                  {label}
                </Text>
                <TranslationType text={text} />
              </Group>
              <Text size="xs" c="dimmed">
                Original: {text.original}
              </Text>
              <Field
                aria-label={`${label} in ${language}`}
                value={draft[key] ?? ''}
                onChange={(event: { currentTarget: { value: string } }) => {
                  const value = event.currentTarget.value;
                  setDraft((current) => ({ ...current, [key]: value }));
                }}
              />
            </Stack>
          );
        })}
      <ErrorMessage error={error} title="Could not save the translation" />
      {saved && (
        <Text size="sm" c="#1e6b34" role="status">
          Translation saved.
        </Text>
      )}
      {isAdmin && (
        <Group justify="flex-end">
          <Button onClick={save} loading={busy} disabled={!valid || Object.values(draft).every((value) => !value.trim())}>
            Save translation
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Editor({ id, onChanged, onClose }: { id: string | 'new'; onChanged: () => void; onClose: () => void }) {
  const listing = useLoad(() => (id === 'new' ? Promise.resolve(undefined) : call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }))), [id]);
  const [tab, setTab] = useState<string | null>('details');
  const [current, setCurrent] = useState<Listing>();
  const shown = (current ?? listing.data) as Listing | undefined;
  if (id !== 'new' && !shown) return listing.error ? <ErrorMessage error={listing.error} /> : <Loading label="Loading the listing" />;
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="md">
        <Tabs.Tab value="details">Details</Tabs.Tab>
        {shown && <Tabs.Tab value="translations">Translations</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="details">
        {shown?.rejectionReason && (
          <Text c="red.9" size="sm" mb="sm">
            Sent back by the reviewer: {shown.rejectionReason}
          </Text>
        )}
        <ListingForm
          key={shown?.updatedAt ?? 'new'}
          listing={shown}
          onClose={onClose}
          onSaved={(saved) => {
            setCurrent(saved);
            onChanged();
            if (id === 'new') onClose();
          }}
        />
      </Tabs.Panel>
      {shown && (
        <Tabs.Panel value="translations">
          <Translations listing={shown} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}

type Move = 'publish' | 'close' | 'archive';

export function ListingsPage() {
  const isAdmin = useIsAdmin();
  const [tab, setTab] = useState<string | null>('all');
  const [status, setStatus] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string>();
  const [rejecting, setRejecting] = useState<Schemas['JobListingListItem']>();
  const [reason, setReason] = useState('');
  const [deleting, setDeleting] = useState<Schemas['JobListingListItem']>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const review = tab === 'review';
  const effectiveStatus = review ? 'UNDER_REVIEW' : status;
  const listings = useLoad(
    () =>
      call(
        api.GET('/public/v1/job-listings', {
          params: { query: { page: page - 1, size: PAGE_SIZE, ...(effectiveStatus ? { status: [effectiveStatus as Status] } : {}) } },
        }),
      ),
    [page, effectiveStatus],
  );

  const act = async (label: string, run: () => Promise<unknown>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      const result = (await run()) as { status?: Status } | undefined;
      setNotice(result?.status ? `${label}: now ${result.status.replace('_', ' ')}` : label);
      listings.reload();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    }
  };
  const move = (id: string, action: Move) => {
    const path = `/public/v1/job-listings/{id}/${action}` as '/public/v1/job-listings/{id}/publish';
    return act(action === 'publish' ? 'Published' : action === 'close' ? 'Closed' : 'Archived', () => call(api.POST(path, { params: { path: { id } } })));
  };

  const matches = (item: Schemas['JobListingListItem']) => item.position.value.toLowerCase().includes(search.trim().toLowerCase());

  return (
    <Page>
      <PageHeader title="Job listings">
        <Button onClick={() => setEditing('new')}>New listing</Button>
      </PageHeader>
      <Tabs
        value={tab}
        onChange={(value) => {
          setTab(value);
          setPage(1);
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="all">All listings</Tabs.Tab>
          <Tabs.Tab value="review">Review queue</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group align="flex-end" wrap="wrap">
        {!review && (
          <Select
            label="Status"
            placeholder="Any (not archived)"
            clearable
            data={['DRAFT', 'ACTIVE', 'UNDER_REVIEW', 'CLOSED', 'ARCHIVED']}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
            w={200}
          />
        )}
        <TextInput label="Search by position (this page)" value={search} onChange={(event) => setSearch(event.currentTarget.value)} w={260} />
      </Group>
      {review && (
        <Text size="sm" c="dimmed">
          Listings published while “Listings need review” is on wait here. {isAdmin ? 'Approve to publish, or reject with a reason.' : 'Only an admin can approve or reject.'}
        </Text>
      )}
      <ErrorMessage error={error} title="That did not work" />
      {notice && (
        <Text size="sm" c="#1e6b34" role="status">
          {notice}
        </Text>
      )}
      <LoadState state={listings} label="Loading listings">
        {({ data, pagination }) => {
          const shown = data.filter(matches);
          return shown.length === 0 ? (
            <Empty>{review ? 'Nothing is waiting for review.' : search ? 'No listing on this page matches.' : 'No job listings yet. Create one to start.'}</Empty>
          ) : (
            <>
              <ScrollTable minWidth={720} label="Job listings">
                <Table highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Position</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Created</Table.Th>
                      <Table.Th>Actions</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {shown.map((item) => (
                      <Table.Tr key={item.id}>
                        <Table.Td>{item.position.value}</Table.Td>
                        <Table.Td>
                          <StatusBadge status={item.status} />
                        </Table.Td>
                        <Table.Td>
                          {item.positionType.replace('_', ' ').toLowerCase()} · {item.workPlaceType.replace('_', ' ').toLowerCase()}
                        </Table.Td>
                        <Table.Td title={formatDate(item.createdAt)}>{timeAgo(item.createdAt)}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {review ? (
                              isAdmin && (
                                <>
                                  <Button size="xs" onClick={() => void act('Approved', () => call(api.POST('/settings/job-listings/{id}/approve', { params: { path: { id: item.id } } })))}>
                                    Approve {item.position.value}
                                  </Button>
                                  <Button size="xs" color="red" variant="light" onClick={() => setRejecting(item)}>
                                    Reject {item.position.value}
                                  </Button>
                                </>
                              )
                            ) : (
                              <>
                                <Button size="xs" variant="default" onClick={() => setEditing(item.id)} aria-label={`Edit ${item.position.value}`}>
                                  Edit
                                </Button>
                                <Menu position="bottom-end">
                                  <Menu.Target>
                                    <Button size="xs" variant="default" aria-label={`More actions for ${item.position.value}`}>
                                      More
                                    </Button>
                                  </Menu.Target>
                                  <Menu.Dropdown>
                                    {(item.status === 'DRAFT' || item.status === 'CLOSED') && <Menu.Item onClick={() => void move(item.id, 'publish')}>Publish</Menu.Item>}
                                    {(item.status === 'ACTIVE' || item.status === 'UNDER_REVIEW') && <Menu.Item onClick={() => void move(item.id, 'close')}>Close</Menu.Item>}
                                    {item.status !== 'ARCHIVED' && <Menu.Item onClick={() => void move(item.id, 'archive')}>Archive</Menu.Item>}
                                    {item.status === 'DRAFT' && (
                                      <Menu.Item color="red" onClick={() => setDeleting(item)}>
                                        Delete draft
                                      </Menu.Item>
                                    )}
                                  </Menu.Dropdown>
                                </Menu>
                              </>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
              {pagination.totalPages > 1 && (
                <Group justify="center">
                  <Pagination total={pagination.totalPages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
                </Group>
              )}
              <Text size="xs" c="dimmed">
                {pagination.totalElements} listing(s)
              </Text>
            </>
          );
        }}
      </LoadState>

      <Drawer opened={Boolean(editing)} onClose={() => setEditing(undefined)} title={editing === 'new' ? 'New job listing' : 'Edit job listing'} position="right" size="xl">
        {editing && <Editor id={editing} onChanged={listings.reload} onClose={() => setEditing(undefined)} />}
      </Drawer>
      <Modal opened={Boolean(rejecting)} onClose={() => setRejecting(undefined)} title="Reject listing">
        <Stack>
          <Title order={3} size="h5">
            {rejecting?.position.value}
          </Title>
          <Textarea label="Reason (shown on the listing)" required value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={2000} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={!reason.trim()}
              onClick={() =>
                void act('Rejected', () => call(api.POST('/settings/job-listings/{id}/reject', { params: { path: { id: rejecting!.id } }, body: { reason } }))).then(() => {
                  setRejecting(undefined);
                  setReason('');
                })
              }
            >
              Reject listing
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={Boolean(deleting)} onClose={() => setDeleting(undefined)} title="Delete draft?">
        <Stack>
          <Text size="sm">“{deleting?.position.value}” is deleted for good.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() =>
                void act('Deleted', () => call(api.DELETE('/public/v1/job-listings/{id}', { params: { path: { id: deleting!.id } } }))).then(() => setDeleting(undefined))
              }
            >
              Delete draft
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}
