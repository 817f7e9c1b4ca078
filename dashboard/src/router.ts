// A small router over the History API: the dashboard's pages live under /dashboard/, and the state
// that matters on a page (the listing picked, the candidate open, the search) lives in its query
// string, so a reload, a shared link and the back button all land on the same view.
import { useCallback, useSyncExternalStore } from 'react';

const PREFIX = '/dashboard';
const CHANGED = 'popstate';

export function currentPath(): string {
  const path = window.location.pathname.startsWith(PREFIX) ? window.location.pathname.slice(PREFIX.length) : '/';
  return path === '' ? '/' : path;
}

/** Tells every hook reading the address that it changed (pushState and replaceState do not). */
function announce(): void {
  window.dispatchEvent(new PopStateEvent(CHANGED));
}

export function navigate(path: string): void {
  window.history.pushState(null, '', `${PREFIX}${path}`);
  announce();
}

/** Replaces the address without a new history entry (the sign-in's return to where it started). */
export function replaceAddress(url: string): void {
  window.history.replaceState(null, '', url);
  announce();
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

/**
 * One query-string parameter of the page as state. Setting it writes the address: `push` for a
 * step the back button should undo (opening a profile), otherwise in place (typing a search).
 */
export function useQueryParam(name: string): [string | null, (value: string | null, how?: 'push' | 'replace') => void] {
  const value = useSyncExternalStore(subscribe, () => new URLSearchParams(window.location.search).get(name));
  const set = useCallback(
    (next: string | null, how: 'push' | 'replace' = 'replace') => {
      const url = new URL(window.location.href);
      if (next === null || next === '') url.searchParams.delete(name);
      else url.searchParams.set(name, next);
      if (url.href === window.location.href) return;
      if (how === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
      announce();
    },
    [name],
  );
  return [value, set];
}

export function href(path: string): string {
  return `${PREFIX}${path}`;
}
