// Picking one job listing out of any number: the input searches the API by position (`q`, debounced)
// and pages on by cursor, so a company with thousands of listings can reach every one. A Mantine
// Combobox: arrows move through the options, Enter picks, Escape closes; what the list holds (or why
// not) is also announced in a live region.
import { Badge, Combobox, Group, Loader, Text, TextInput, VisuallyHidden, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { api, call, type Schemas } from './api';

type Status = Schemas['JobListing']['status'];

export interface PickedListing {
  id: string;
  label: string;
}

interface Results {
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
  const [results, setResults] = useState<Results>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);
  // Answers to an older search (or page) never overwrite a newer one.
  const round = useRef(0);
  const statusKey = (statuses ?? []).join(',');

  useEffect(() => setSearch(value?.label ?? ''), [value?.id, value?.label]);

  const load = async (cursor: string | null) => {
    const mine = ++round.current;
    setLoading(true);
    setError(undefined);
    try {
      const page = await call(
        api.GET('/public/v1/job-listings', {
          params: { query: { size: PAGE_SIZE, ...(q ? { q } : {}), ...(statuses?.length ? { status: statuses } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      );
      if (mine !== round.current) return;
      const items = page.data.map((item) => ({ id: item.id, label: item.position.value, status: item.status }));
      setResults((before) => ({
        items: cursor && before ? [...before.items, ...items] : items,
        total: page.pagination.totalElements,
        nextCursor: page.pagination.nextCursor,
      }));
    } catch (caught) {
      if (mine === round.current) setError(caught);
    } finally {
      if (mine === round.current) setLoading(false);
    }
  };

  useEffect(() => {
    if (!wanted) return;
    setResults(undefined);
    void load(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, q, statusKey]);

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
        : `${results.total} listing(s)${q ? ` match “${q}”` : ''}${results.items.length < results.total ? `, showing ${results.items.length}` : ''}.`
      : undefined;

  return (
    <div style={{ width: typeof width === 'number' ? width : undefined }}>
      <Combobox
        store={combobox}
        withinPortal
        onOptionSubmit={(picked) => {
          if (picked === MORE) {
            if (results?.nextCursor) void load(results.nextCursor);
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
            value={search}
            w={typeof width === 'number' ? undefined : width}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setTyping(true);
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
                      {item.status.toLowerCase().replace('_', ' ')}
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
    </div>
  );
}
