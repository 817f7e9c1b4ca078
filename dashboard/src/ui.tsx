// Shared pieces: loading, empty and error states, relative times, the current user's role.
import { Alert, Anchor, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiError, type Loaded } from './api';
import { errorAdvice, fieldName, refusalAdvice } from './refusal';
import { href, navigate } from './router';

export interface Session {
  email: string;
  name: string | undefined;
  userId: string;
  role: 'ADMIN' | 'MEMBER';
  companyName: string;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}

export function useIsAdmin(): boolean {
  return useSession().role === 'ADMIN';
}

/**
 * An error in words: the server's message, what to do about it (never the code or HTTP status) and
 * each refused field by its name. `local`: the request named a local address (see errorAdvice).
 */
export function ErrorMessage({ error, title = 'Something went wrong', local }: { error: unknown; title?: string; local?: boolean }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  const advice = apiError ? errorAdvice(apiError.status, apiError.code, apiError.details, { local }) : undefined;
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Text size="sm">{apiError ? apiError.message : String((error as Error).message ?? error)}</Text>
      {advice && (
        <Text size="sm" mt={4} fw={500} data-testid="error-advice">
          {advice}
        </Text>
      )}
      {/* Keyed by the error: a new refusal starts its countdown from now, not from an older clock. */}
      {apiError && <RefusalAdvice key={apiError.retryAt ?? 0} error={apiError} />}
      {apiError && apiError.details.length > 0 && (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {apiError.details.map((detail, index) => (
            <li key={index}>
              <Text size="sm">
                <strong>{fieldName(detail.field)}</strong>: {detail.message}
              </Text>
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** For a 429 or 503: what happened and a countdown to the Retry-After time. */
function RefusalAdvice({ error }: { error: ApiError }) {
  const [now, setNow] = useState(() => Date.now());
  const waiting = error.retryAt !== undefined && error.retryAt > now;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  const advice = refusalAdvice(error.status, error.retryAt, now);
  if (!advice) return null;
  return (
    // Inside the alert, announced with it; the countdown's ticks are not announced again.
    <Text size="sm" mt={4} data-testid="retry-advice" aria-live="off">
      {advice}
    </Text>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite" data-loading>
      <Group gap="xs">
        <Loader size="sm" aria-hidden />
        <Text c="dimmed" size="sm">
          {label}…
        </Text>
      </Group>
    </Center>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Center py="xl">
      <Text c="dimmed" size="sm">
        {children}
      </Text>
    </Center>
  );
}

/** Loading, error or the content, for one loaded resource. */
export function LoadState<T>({ state, children, label }: { state: Loaded<T>; children: (data: T) => ReactNode; label?: string }) {
  if (state.error && state.data === undefined) return <ErrorMessage error={state.error} title="Could not load" />;
  if (state.data === undefined) return <Loading label={label} />;
  return (
    <>
      {state.error && <ErrorMessage error={state.error} title="Could not refresh" />}
      {children(state.data)}
    </>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Group>
  );
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "in 11 months". */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

export function Page({ children }: { children: ReactNode }) {
  return <Stack gap="md">{children}</Stack>;
}

/**
 * A table that scrolls sideways on narrow screens. The scrolling region is focusable and named, so
 * keyboard users can scroll it too.
 */
export function ScrollTable({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}

/**
 * An empty state that says what to do first: a sentence and the one step to take (a link to the
 * page where it is done).
 */
export function FirstStep({ children, action, to, testId }: { children: ReactNode; action?: string; to?: string; testId?: string }) {
  return (
    <Center py="xl" data-testid={testId}>
      <Stack gap="xs" align="center" maw={520}>
        <Text c="dimmed" size="sm" ta="center">
          {children}
        </Text>
        {action && to && (
          <Anchor href={href(to)} onClick={(event) => {
            event.preventDefault();
            navigate(to);
          }} fw={600} size="sm">
            {action}
          </Anchor>
        )}
      </Stack>
    </Center>
  );
}
