// The company dashboard: the static files Vite builds from dashboard/ into dashboard/dist, served at
// /dashboard (a single-page app: any other path under it answers index.html), and / leads there.
// The files are read once at start (a few hundred kilobytes). Without a build (a production install
// started without its build step, or a checkout nobody built) the API serves as usual and the
// dashboard's paths answer a page saying how to build it; the server logs the same at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { messagePage } from '../shared/html-page.ts';

/** The service's mark (dashboard/index.html links the same drawing as a data: URL). */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b4bb0"/><path d="M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m7 0 5 5" fill="none" stroke="white" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>';

const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  type: string;
}

function readBuild(dir: string): Map<string, StaticFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, StaticFile>();
  try {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      files.set(name.split('\\').join('/'), { body: readFileSync(join(dir, name)), type });
    }
  } catch {
    // Swapped for a new build while being read (scripts/build-dashboard.ts): as if not built.
    return undefined;
  }
  return files;
}

export async function registerDashboard(app: FastifyInstance, options: { dir?: string } = {}): Promise<void> {
  const files = readBuild(options.dir ?? DASHBOARD_DIST);
  if (!files) {
    app.log.warn('The dashboard is not built (dashboard/dist is missing): /dashboard explains how to build it. `npm start` builds it when the build tools are installed.');
  }

  const send = (reply: FastifyReply, path: string) => {
    const file = files?.get(path);
    if (files && file) {
      // Vite names assets by content hash: they never change under one name.
      const cache = path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      return reply.header('cache-control', cache).type(file.type).send(file.body);
    }
    if (files && path.startsWith('assets/')) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    if (files) {
      const index = files.get('index.html')!;
      return reply.header('cache-control', 'no-cache').type(index.type).send(index.body);
    }
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        messagePage(
          'Dashboard not built',
          'You are signed in, but this server has no dashboard build. Run `npm run build:dashboard` (or `npm start`, which builds it) with the dashboard workspace installed, then restart. The API works without it.',
        ),
      );
  };

  const hidden = { schema: { hide: true } };
  app.get('/', hidden, async (_request, reply) => reply.redirect('/dashboard/', 302));
  // Browsers ask every origin for it (the sign-in pages link none): the service's mark, not a 404.
  app.get('/favicon.ico', hidden, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
  );
  app.get('/dashboard', hidden, async (_request, reply) => reply.redirect('/dashboard/', 302));
  app.get('/dashboard/', hidden, async (_request, reply) => send(reply, 'index.html'));
  app.get<{ Params: { '*': string } }>('/dashboard/*', hidden, async (request, reply) => send(reply, request.params['*']));
}
