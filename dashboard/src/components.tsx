// The shapes every page repeats, written once: an action with its busy and error state, the
// Cancel/Submit row, a confirmation dialog, a success notice, a data table with its loading, empty
// and error states, the pager under it, and groups of form fields (also repeated rows). Pages stay small and behave alike.
import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Pagination, Paper, Stack, Switch, Table, Text, type ButtonProps, type MantineSize } from '@mantine/core';
import { useCallback, useState, type CSSProperties, type ReactNode } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import type { Loaded } from './api';
import { Empty, ErrorMessage, LoadState, ScrollTable, useIsAdmin } from './ui';
import { plural } from './labels';

export interface Action {
  busy: boolean;
  error: unknown;
  /** Runs `work` (one at a time): true when it succeeded; a failure is kept in `error`. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { busy, error, run, clear };
}

/** Cancel (when given) and the submit button, at the end of a form or dialog. */
export function FormActions({
  submitLabel,
  onSubmit,
  onCancel,
  busy,
  disabled,
  color,
}: {
  submitLabel: string;
  onSubmit: () => void;
  onCancel?: () => void;
  busy?: boolean;
  disabled?: boolean;
  color?: ButtonProps['color'];
}) {
  return (
    <Group justify="flex-end">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
      <Button color={color} loading={busy} disabled={disabled} onClick={onSubmit}>
        {submitLabel}
      </Button>
    </Group>
  );
}

/** A short success message, announced to screen readers. */
export function Notice({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Text size="sm" c="#1e6b34" role="status">
      {children}
    </Text>
  );
}

/**
 * A dialog that asks before doing something (deleting, revoking, rejecting...). `onConfirm` runs
 * with the busy state on the button; it closes on success and shows the error otherwise.
 */
export function ConfirmDialog({
  opened,
  title,
  confirmLabel,
  onConfirm,
  onClose,
  children,
  disabled,
  color = 'red',
}: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
  disabled?: boolean;
  color?: ButtonProps['color'];
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {/* Mounted only while open: a dialog opened again starts without the last error. */}
      {opened && (
        <ConfirmBody confirmLabel={confirmLabel} onConfirm={onConfirm} onClose={onClose} disabled={disabled} color={color}>
          {children}
        </ConfirmBody>
      )}
    </Modal>
  );
}

function ConfirmBody({
  confirmLabel,
  onConfirm,
  onClose,
  children,
  disabled,
  color,
}: {
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
  disabled?: boolean;
  color: ButtonProps['color'];
}) {
  const action = useAction();
  return (
    <Stack>
      {children}
      <ErrorMessage error={action.error} title="That did not work" />
      <FormActions
        submitLabel={confirmLabel}
        color={color}
        busy={action.busy}
        disabled={disabled}
        onCancel={onClose}
        onSubmit={() => void action.run(onConfirm).then((ok) => ok && onClose())}
      />
    </Stack>
  );
}

/** Page numbers (1-based) under a list; nothing when everything fits on one page. */
export function Pager({ total, value, onChange }: { total: number; value: number; onChange: (page: number) => void }) {
  if (total <= 1) return null;
  return (
    <Group justify="center">
      <Pagination total={total} value={value} onChange={onChange} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
    </Group>
  );
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** A tooltip for the cell (e.g. the exact date behind "3 minutes ago"). */
  title?: (row: T) => string;
  style?: CSSProperties;
}

/**
 * A table of rows; on a phone's width each row becomes a card (every field under its header, the
 * actions included), so nothing a person can do sits off screen.
 */
export function DataTable<T>({
  label,
  minWidth,
  columns,
  rows,
  rowKey,
  rowTestId,
  striped,
  fontSize,
}: {
  label: string;
  minWidth: number;
  columns: Array<Column<T> | false | undefined>;
  rows: T[];
  rowKey: (row: T) => string;
  rowTestId?: (row: T) => string;
  striped?: boolean;
  fontSize?: MantineSize;
}) {
  const shown = columns.filter((column): column is Column<T> => Boolean(column));
  const narrow = useMediaQuery(`(max-width: ${Math.min(minWidth, 640)}px)`);
  if (narrow) {
    return (
      <Stack gap="xs" role="list" aria-label={label}>
        {rows.map((row) => (
          <Paper key={rowKey(row)} withBorder p="sm" role="listitem" data-testid={rowTestId?.(row)}>
            <Stack gap={6}>
              {shown.map((column) => (
                <div key={column.header} title={column.title?.(row)}>
                  {column.header && (
                    <Text size="xs" c="dimmed">
                      {column.header}
                    </Text>
                  )}
                  <div style={{ overflowWrap: 'anywhere', fontSize: fontSize ? `var(--mantine-font-size-${fontSize})` : undefined }}>{column.cell(row)}</div>
                </div>
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <ScrollTable minWidth={minWidth} label={label}>
      <Table highlightOnHover striped={striped} fz={fontSize}>
        <Table.Thead>
          <Table.Tr>
            {shown.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              {shown.map((column) => (
                <Table.Td key={column.header} title={column.title?.(row)} style={column.style}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

interface PageOf<T> {
  data: T[];
  pagination?: { totalPages: number; totalElements: number };
}

/**
 * A loaded list as a table: loading, the API's error, the empty message, or the rows with a pager
 * (when `page` is given) and the count.
 */
export function ResourceTable<T>({
  state,
  loadingLabel,
  empty,
  page,
  countLabel,
  ...table
}: {
  state: Loaded<PageOf<T>>;
  loadingLabel: string;
  empty: ReactNode;
  page?: { value: number; onChange: (page: number) => void };
  /**
   * The count under the table in words: `(total) => plural(total, 'listing')` shows "12 listings";
   * a noun "candidate(s)" is read as candidate/candidates by the count.
   */
  countLabel?: string | ((total: number) => string);
} & Omit<Parameters<typeof DataTable<T>>[0], 'rows'>) {
  return (
    <LoadState state={state} label={loadingLabel}>
      {({ data, pagination }) =>
        data.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <>
            <DataTable {...table} rows={data} />
            {page && pagination && <Pager total={pagination.totalPages} value={page.value} onChange={page.onChange} />}
            {countLabel && pagination && (
              <Text size="xs" c="dimmed">
                {typeof countLabel === 'function' ? countLabel(pagination.totalElements) : plural(pagination.totalElements, countLabel.replace(/\(s\)/, ''))}
              </Text>
            )}
          </>
        )
      }
    </LoadState>
  );
}

/** An on/off setting of a settings form: an admin changes it, a member reads it. */
export function SettingSwitch({ label, description, checked, onChange }: { label: string; description?: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const isAdmin = useIsAdmin();
  return <Switch label={label} description={description} checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} disabled={!isAdmin} />;
}

/**
 * The end of a settings form: the save's error, "Saved.", and the save button for an admin (a
 * member is told only an admin changes these settings).
 */
export function SettingsSave({ saving, saved, submitLabel, onSubmit, disabled }: { saving: Action; saved: boolean; submitLabel: string; onSubmit: () => void; disabled?: boolean }) {
  const isAdmin = useIsAdmin();
  return (
    <>
      <ErrorMessage error={saving.error} title="Could not save" />
      <Notice>{saved && 'Saved.'}</Notice>
      {isAdmin ? (
        <FormActions submitLabel={submitLabel} onSubmit={onSubmit} busy={saving.busy} disabled={disabled} />
      ) : (
        <Text size="sm" c="dimmed">
          Only an admin can change these settings.
        </Text>
      )}
    </>
  );
}

/** A titled group of fields (a fieldset, so screen readers announce the group). */
export function FieldGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <legend style={{ padding: 0, marginBottom: 6 }}>
        <Text size="sm" fw={600}>
          {legend}
        </Text>
      </legend>
      <Stack gap="xs">{children}</Stack>
    </fieldset>
  );
}

/** Rows of the same fields (skills, hiring steps, benefits, requirements): add, remove and reorder. */
export function Repeated<T>({
  legend,
  noun,
  items,
  onChange,
  blank,
  max = 50,
  children,
}: {
  legend: string;
  noun: string;
  items: T[];
  onChange: (items: T[]) => void;
  blank: T;
  /** The API's maxItems for the list. */
  max?: number;
  children: (item: T, update: (patch: Partial<T>) => void, index: number) => ReactNode;
}) {
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    onChange(next);
  };
  return (
    <FieldGroup legend={legend}>
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          None yet.
        </Text>
      )}
      {items.map((item, index) => (
        <Paper key={index} withBorder p="xs" data-testid={`${noun}-${index + 1}`}>
          <Group align="flex-start" wrap="nowrap" gap="xs">
            <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
              {children(item, (patch) => onChange(items.map((current, at) => (at === index ? { ...current, ...patch } : current))), index)}
            </Stack>
            <Stack gap={4}>
              <ActionIcon variant="default" aria-label={`Move ${noun} ${index + 1} up`} disabled={index === 0} onClick={() => move(index, index - 1)}>
                <span aria-hidden>↑</span>
              </ActionIcon>
              <ActionIcon variant="default" aria-label={`Move ${noun} ${index + 1} down`} disabled={index === items.length - 1} onClick={() => move(index, index + 1)}>
                <span aria-hidden>↓</span>
              </ActionIcon>
              <ActionIcon variant="light" color="red" aria-label={`Remove ${noun} ${index + 1}`} onClick={() => onChange(items.filter((_, at) => at !== index))}>
                <span aria-hidden>×</span>
              </ActionIcon>
            </Stack>
          </Group>
        </Paper>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...items, blank])} disabled={items.length >= max}>
          Add {noun}
        </Button>
      </Group>
    </FieldGroup>
  );
}

/** A secret the server shows only once (a raw API key, a signing secret): the warning, the value, copy. */
export function ShownOnce({ title, children, value, testId, copyLabel, onDone }: { title: string; children: ReactNode; value: string; testId: string; copyLabel: string; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title={title} variant="light">
        {children}
      </Alert>
      <Code block data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Code>
      <Group justify="space-between">
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>I have stored it</Button>
      </Group>
    </Stack>
  );
}
