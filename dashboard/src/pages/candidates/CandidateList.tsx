// The candidates across every listing, filtered by stage, listing, source and applied date and
// searched by name, e-mail and résumé text; every filter lives in the address (a reload, a link and
// the back button keep them).
import { Alert, Badge, Button, Group, MultiSelect, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad } from '../../api';
import { DataTable, Pager } from '../../components';
import { ListingPicker, type PickedListing } from '../../listing-picker';
import { useQueryParam } from '../../router';
import { Empty, formatDate, LoadState } from '../../ui';
import { useListingTitles } from './listing-titles';
import { byApplication, findCandidates, type Filters, type Row } from './search';
import { plural, SOURCE_LABELS, STAGE_LABELS, STAGES, type Source, type Stage } from '../../labels';
import { sourceLabel, SOURCES } from './words';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the address has them; anything malformed there is left out. */
function useFilters() {
  const [q, setQ] = useQueryParam('q');
  const [stage, setStage] = useQueryParam('stage');
  const [listing, setListing] = useQueryParam('listing');
  const [source, setSource] = useQueryParam('source');
  const [from, setFrom] = useQueryParam('from');
  const [to, setTo] = useQueryParam('to');
  const [pageParam, setPage] = useQueryParam('page');
  const filters: Filters = {
    q: (q ?? '').trim(),
    stages: (stage ?? '').split(',').filter((item): item is Stage => (STAGES as string[]).includes(item)),
    listing: listing && /^[0-9a-f-]{36}$/i.test(listing) ? listing : null,
    source: source && (SOURCES as string[]).includes(source) ? (source as Source) : null,
    from: from && DAY.test(from) ? from : null,
    to: to && DAY.test(to) ? to : null,
  };
  const page = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  // A new filter starts again at the first page; each change is a step back undoes.
  const change = (set: (value: string | null, how?: 'push' | 'replace') => void, value: string | null, how: 'push' | 'replace' = 'push') => {
    setPage(null);
    set(value, how);
  };
  return {
    filters,
    page,
    setPage: (next: number) => setPage(next > 1 ? String(next) : null, 'push'),
    setQ: (value: string) => change(setQ, value.trim()),
    setStages: (value: string[]) => change(setStage, value.join(',')),
    setListing: (value: string | null) => change(setListing, value),
    setSource: (value: string | null) => change(setSource, value),
    // A date is typed a part at a time: one step for the whole date, not one per part.
    setFrom: (value: string) => change(setFrom, value, 'replace'),
    setTo: (value: string) => change(setTo, value, 'replace'),
    clear: () => {
      for (const set of [setQ, setStage, setListing, setSource, setFrom, setTo, setPage]) set(null);
    },
  };
}

/** The listing the address names, with its title for the picker. */
function useListingFilter(id: string | null) {
  const [pickedHere, setPickedHere] = useState<PickedListing | null>(null);
  const named = useLoad(async () => {
    if (!id || pickedHere?.id === id) return null;
    try {
      const listing = await call(api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } }));
      return { id, label: listing.position.value };
    } catch {
      return { id, label: 'A deleted listing' };
    }
  }, [id]);
  const value = !id ? null : pickedHere?.id === id ? pickedHere : (named.data ?? { id, label: '' });
  return { value, remember: setPickedHere };
}

export function CandidateList({ onOpen, emptyHint }: { onOpen: (id: string) => void; emptyHint: string }) {
  const state = useFilters();
  const { filters, page } = state;
  const [query, setQuery] = useState(filters.q);
  // The address changed the search (back, a link): the field shows it.
  const [shownQ, setShownQ] = useState(filters.q);
  if (shownQ !== filters.q) {
    setShownQ(filters.q);
    setQuery(filters.q);
  }
  const listing = useListingFilter(filters.listing);
  const key = JSON.stringify(filters);
  const results = useLoad(() => findCandidates(filters, page), [key, page]);
  const titles = useListingTitles((results.data?.rows ?? []).flatMap((row) => (row.application ? [row.application.jobListingId] : [])));
  const filtered = key !== JSON.stringify({ ...filters, q: '', stages: [], listing: null, source: null, from: null, to: null });
  const perApplication = byApplication(filters);

  return (
    <>
      <form
        role="search"
        aria-label="Candidates"
        onSubmit={(event) => {
          event.preventDefault();
          state.setQ(query);
        }}
      >
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput label="Search candidates" description="Name, e-mail or résumé text" value={query} onChange={(event) => setQuery(event.currentTarget.value)} w={{ base: '100%', sm: 300 }} />
          <Button type="submit" variant="default">
            Search
          </Button>
        </Group>
      </form>
      <Group align="flex-end" wrap="wrap" gap="sm" data-testid="candidate-filters">
        <MultiSelect
          label="Stage"
          placeholder={filters.stages.length ? undefined : 'Any stage'}
          data={STAGES.map((stage) => ({ value: stage, label: STAGE_LABELS[stage] }))}
          value={filters.stages}
          onChange={state.setStages}
          clearable
          w={{ base: '100%', sm: 260 }}
          comboboxProps={{ withinPortal: true }}
        />
        <ListingPicker
          label="Listing"
          placeholder="Any listing"
          clearable
          showStatus
          value={listing.value}
          onChange={(picked) => {
            listing.remember(picked);
            state.setListing(picked?.id ?? null);
          }}
          width={{ base: '100%', sm: 260 }}
        />
        <Select
          label="Source"
          placeholder="Any source"
          data={SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source] }))}
          value={filters.source}
          onChange={state.setSource}
          clearable
          w={{ base: '100%', sm: 180 }}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput type="date" label="Applied from" value={filters.from ?? ''} onChange={(event) => state.setFrom(event.currentTarget.value)} w={{ base: '47%', sm: 160 }} />
        <TextInput type="date" label="Applied until" value={filters.to ?? ''} onChange={(event) => state.setTo(event.currentTarget.value)} w={{ base: '47%', sm: 160 }} />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setQuery('');
              state.clear();
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      <LoadState state={results} label="Loading candidates">
        {({ rows, total, totalPages, problem }) => (
          <>
            {problem ? (
              <Alert color="yellow" variant="light" data-testid="filter-problem">
                {problem}
              </Alert>
            ) : rows.length === 0 ? (
              <Empty>{filtered ? 'No candidate matches these filters.' : emptyHint}</Empty>
            ) : (
              <>
                <DataTable<Row>
                  label="Candidates"
                  minWidth={perApplication ? 760 : 560}
                  rows={rows}
                  rowKey={(row) => row.key}
                  rowTestId={(row) => `candidate-row-${row.key}`}
                  columns={[
                    {
                      header: 'Name',
                      cell: (row) => (
                        <Button variant="subtle" size="compact-sm" onClick={() => onOpen(row.candidateId)}>
                          {row.name}
                        </Button>
                      ),
                    },
                    { header: 'E-mail', cell: (row) => row.email },
                    perApplication && { header: 'Listing', cell: (row) => (row.application ? (titles.get(row.application.jobListingId) ?? '…') : '—') },
                    perApplication && {
                      header: 'Stage',
                      cell: (row) =>
                        row.application && (
                          <Badge variant="light" tt="none">
                            {STAGE_LABELS[row.application.status]}
                          </Badge>
                        ),
                    },
                    { header: 'Source', cell: (row) => sourceLabel(row.application?.source ?? row.candidate?.source ?? '') },
                    perApplication
                      ? { header: 'Applied', cell: (row) => formatDate(row.application?.appliedAt) }
                      : { header: 'Added', cell: (row) => formatDate(row.candidate?.createdAt) },
                  ]}
                />
                <Pager total={totalPages} value={page} onChange={state.setPage} />
                <Text size="xs" c="dimmed">
                  {perApplication ? plural(total, 'application') : plural(total, 'candidate')}
                </Text>
              </>
            )}
          </>
        )}
      </LoadState>
    </>
  );
}
