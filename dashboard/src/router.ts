// A small router over the History API: the dashboard's pages live under /dashboard/.
import { useEffect, useState } from 'react';

const PREFIX = '/dashboard';

export function currentPath(): string {
  const path = window.location.pathname.startsWith(PREFIX) ? window.location.pathname.slice(PREFIX.length) : '/';
  return path === '' ? '/' : path;
}

export function navigate(path: string): void {
  window.history.pushState(null, '', `${PREFIX}${path}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

export function href(path: string): string {
  return `${PREFIX}${path}`;
}
