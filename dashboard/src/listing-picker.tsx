// Picking one job listing out of any number: the input searches the API by position (`q`, debounced)
// and pages on by cursor, so a company with thousands of listings can reach every one. A Mantine
// Combobox: arrows move through the options, Enter picks, Escape closes; what the list holds (or why
// not) is also announced in a live region.
import { Badge, Box, Combobox, Group, Loader, Text, TextInput, VisuallyHidden, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, call, type Schemas } from './api';
import { LISTING_STATUS_LABELS, plural } from './labels';

type Status = Schemas['JobListing']['status'];

export interface PickedListing {
  id: string;
  label: string;
}

interface Results {
  /** The search these answer (`q` and the statuses): another search's results are never shown. */
  query: string;
  items: Array<{ id: string; label: string; status: Status }>;
  total: number;
  nextCursor: string | null;
}

const PAGE_SIZE = 20;
const MORE = '\u0000more';

export function ListingPicker({
  label,
  value,
  onChange,
  statuses,
  clearable,
  placeholder = 'Type to search by position',
  width,
  showStatus,
}: {
  label: string;
  value: PickedListing | null;
  onChange: (picked: PickedListing | null) => void;
  statuses?: Status[];
  clearable?: boolean;
  placeholder?: string;
  /** Mantine style prop: a number or per breakpoint ({ base: '100%', sm: 360 }). */
  width?: number | Record<string, number | string>;
  showStatus?: boolean;
}) {
  // Listings load on the first opening (click, typing or the arrow keys), not with the page.
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption(), onDropdownOpen: () => setWanted(true) });
  const [search, setSearch] = useState(value?.label ?? '');
  // While the input shows the picked listing's name it is not a search: opening lists everything.
  const [typing, setTyping] = useState(false);
  const [q] = useDebouncedValue(typing ? search.trim() : '', 300);
  const [wanted, setWanted] = useState(false);
  const [answer, setAnswer] = useState<Results>();
  const [failure, setFailure] = useState<{ query: string; error: unknown }>();
  // The search whose next page is loading ("Show more").
  const [moreFor, setMoreFor] = useState<string>();
  const statusKey = (statuses ?? []).join(',');
  const query = `${q}\u0000${statusKey}`;
  const results = answer?.query === query ? answer : undefined;
  const error = failure?.query === query ? failure.error : undefined;
  const loading = (wanted && !results && !error) || moreFor === query;

  // A listing picked (or cleared) from outside shows in the input at once.
  const [shownValue, setShownValue] = useState(value);
  if (shownValue?.id !== value?.id || shownValue?.label !== value?.label) {
    setShownValue(value);
    setSearch(value?.label ?? '');
  }

  const fetchPage = (cursor: string | null) =>
    call(
      api.GET('/public/v1/job-listings', {
        params: { query: { size: PAGE_SIZE, ...(q ? { q } : {}), ...(statuses?.length ? { status: statuses } : {}), ...(cursor ? { cursor } : {}) } },
      }),
    );
  type Page = Awaited<ReturnType<typeof fetchPage>>;
  const resultsOf = (page: Page, before: Results | undefined): Results => {
    const items = page.data.map((item) => ({ id: item.id, label: item.position.value, status: item.status }));
    return { query, items: before ? [...before.items, ...items] : items, total: page.pagination.totalElements, nextCursor: page.pagination.nextCursor };
  };

  // The first page of each search; an answer to a search typed over is dropped.
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    fetchPage(null).then(
      (page) => {
        if (!live) return;
        setAnswer(resultsOf(page, undefined));
        setFailure(undefined);
      },
      (caught: unknown) => live && setFailure({ query, error: caught }),
    );
    return () => {
      live = false;
    };
    // fetchPage and resultsOf are made anew each render from q and the statuses: the search (with
    // the statuses by value, not the caller's new array) is what the effect follows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, q, statusKey]);

  // The next page, appended only if the search is still the one it continues.
  const loadMore = async (cursor: string) => {
    setMoreFor(query);
    try {
      const page = await fetchPage(cursor);
      setAnswer((before) => (before?.query === query ? resultsOf(page, before) : before));
    } catch (caught) {
      setFailure({ query, error: caught });
    } finally {
      setMoreFor((current) => (current === query ? undefined : current));
    }
  };

  const open = () => combobox.openDropdown();
  const close = () => {
    combobox.closeDropdown();
    setTyping(false);
    setSearch(value?.label ?? '');
  };
  const pending = loading || (typing && search.trim() !== q);
  const errorText = error ? `Could not load listings: ${(error as Error).message ?? String(error)}` : undefined;
  const summary = errorText
    ? errorText
    : results && !pending
      ? results.total === 0
        ? q
          ? `No listing matches “${q}”.`
          : 'No listings yet.'
        : `${plural(results.total, 'listing')}${q ? ` ${results.total === 1 ? 'matches' : 'match'} “${q}”` : ''}${results.items.length < results.total ? `, showing ${results.items.length}` : ''}.`
      : undefined;

  return (
    <Box w={width}>
      <Combobox
        store={combobox}
        withinPortal
        onOptionSubmit={(picked) => {
          if (picked === MORE) {
            if (results?.nextCursor) void loadMore(results.nextCursor);
            return;
          }
          const item = results?.items.find((candidate) => candidate.id === picked);
          if (item) onChange({ id: item.id, label: item.label });
          setTyping(false);
          setSearch(item?.label ?? value?.label ?? '');
          combobox.closeDropdown();
        }}
      >
        <Combobox.Target withExpandedAttribute>
          <TextInput
            label={label}
            placeholder={placeholder}
            maxLength={200}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setTyping(true);
              // A search typed again is tried again, not answered by its earlier failure.
              setFailure(undefined);
              open();
              combobox.updateSelectedOptionIndex();
              if (clearable && event.currentTarget.value === '') onChange(null);
            }}
            onClick={open}
            onBlur={close}
            onKeyDown={(event) => {
              // Escape (which also closes the list) drops what was typed, like leaving the field.
              if (event.key === 'Escape') {
                setTyping(false);
                setSearch(value?.label ?? '');
              }
            }}
            rightSection={
              pending && combobox.dropdownOpened ? (
                <Loader size={16} aria-hidden />
              ) : clearable && value ? (
                <Combobox.ClearButton
                  aria-label={`Clear ${label.toLowerCase()}`}
                  onClear={() => {
                    onChange(null);
                    setSearch('');
                  }}
                />
              ) : (
                <Combobox.Chevron />
              )
            }
            rightSectionPointerEvents={clearable && value ? 'all' : 'none'}
          />
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options mah={280} style={{ overflowY: 'auto' }}>
            {results?.items.map((item) => (
              <Combobox.Option value={item.id} key={item.id} active={item.id === value?.id}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Text size="sm" truncate>
                    {item.label}
                  </Text>
                  {showStatus && (
                    <Badge size="xs" variant="outline" color="gray" style={{ flexShrink: 0 }}>
                      {LISTING_STATUS_LABELS[item.status].toLowerCase()}
                    </Badge>
                  )}
                </Group>
              </Combobox.Option>
            ))}
            {results?.nextCursor && !loading && (
              <Combobox.Option value={MORE}>
                <Text size="sm" c="indigo.9">
                  Show more ({results.total - results.items.length} not shown)
                </Text>
              </Combobox.Option>
            )}
            {errorText ? (
              <Combobox.Empty>
                <Text size="sm" c="red.9">
                  {errorText}
                </Text>
              </Combobox.Empty>
            ) : !results || pending ? (
              <Combobox.Empty>{typing ? 'Searching…' : 'Loading listings…'}</Combobox.Empty>
            ) : (
              results.total === 0 && <Combobox.Empty>{summary}</Combobox.Empty>
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      <VisuallyHidden role="status" aria-live="polite">
        {combobox.dropdownOpened ? summary : ''}
      </VisuallyHidden>
    </Box>
  );
}
