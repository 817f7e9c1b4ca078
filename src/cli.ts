// Operator commands: `npm run -s cli -- <command> [options]`. Results are JSON on stdout; errors go
// to stderr with a non-zero exit (2: wrong arguments, 1: the command failed). Commands open the
// same database as the server: PostgreSQL when DATABASE_URL is set, else the embedded one in
// DATA_DIR, which works while the server is stopped and is refused while a server holds it.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig, s3StoreSettings, type Config, type S3StoreSettings } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { ALL_SCOPES } from './modules/api-keys/scopes.ts';
import type { Deps } from './deps.ts';
import type { ServiceContext } from './shared/context.ts';
import { DomainError } from './shared/errors.ts';

// The database layer and the services are imported inside the commands (`await import`): loading
// them takes most of a second, and help or a mistyped option should answer at once.

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Command {
  /** The options part of the usage line. */
  usage: string;
  summary: string;
  options: ParseArgsOptionsConfig;
  /** Returns what to print as JSON (nothing for undefined). */
  run(values: Values, config: Config, io: CliIo): Promise<unknown>;
  /** False: runs without loading the settings (so it works before they are complete). */
  needsConfig?: false;
}

/** Where a run reads its settings and writes its output: the process's own, or a test's. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Wrong arguments: explained, with the command's usage line, exit code 2. */
class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function requiredId(values: Values, name: string): string {
  const value = required(values, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be an id (a UUID), got "${value}"`);
  return value;
}

function integerOption(values: Values, name: string, fallback: number, min: number, max: number): number {
  const value = optional(values, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return number;
}

/** Builds the process's dependencies as the server does (migrating the database if needed), runs fn, closes them. */
async function withDeps<T>(config: Config, fn: (deps: Deps) => Promise<T>): Promise<T> {
  const { buildDeps } = await import('./deps.ts');
  const deps = await buildDeps(config);
  try {
    return await fn(deps);
  } finally {
    await deps.close();
  }
}

async function withServices<T>(config: Config, fn: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  return withDeps(config, (deps) => fn(deps.ctx));
}

const commands: Record<string, Command> = {
  'company create': {
    usage: '--name NAME [--default-language xx]',
    summary: 'Create a company (a tenant). Prints the company.',
    options: { name: { type: 'string' }, 'default-language': { type: 'string' } },
    async run(values, config) {
      const input = { name: required(values, 'name'), defaultLanguage: optional(values, 'default-language') };
      const { createCompany } = await import('./modules/companies/service.ts');
      return withServices(config, (ctx) => createCompany(ctx, input));
    },
  },

  'company list': {
    usage: '[--page N] [--size N]',
    summary: 'List the companies (tenants), newest first: { data, pagination } (page from 0, size 1 to 1000, default 100).',
    options: { page: { type: 'string' }, size: { type: 'string' } },
    async run(values, config) {
      const page = integerOption(values, 'page', 0, 0, 1_000_000);
      const size = integerOption(values, 'size', 100, 1, 1000);
      const { listCompanies } = await import('./modules/companies/service.ts');
      return withServices(config, (ctx) => listCompanies(ctx, { page, size }));
    },
  },

  'company board': {
    usage: '--company ID [--slug SLUG] [--enabled true|false]',
    summary: "Set a company's job board address and turn it on or off (as PATCH /settings/company/board). Prints the board settings.",
    options: { company: { type: 'string' }, slug: { type: 'string' }, enabled: { type: 'string' } },
    async run(values, config) {
      const companyId = requiredId(values, 'company');
      const enabled = optional(values, 'enabled');
      if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') throw new UsageError('--enabled must be true or false');
      const patch = { slug: optional(values, 'slug'), enabled: enabled === undefined ? undefined : enabled === 'true' };
      if (patch.slug === undefined && patch.enabled === undefined) throw new UsageError('give --slug, --enabled or both');
      const { updateBoardSettings } = await import('./modules/companies/service.ts');
      return withServices(config, (ctx) => updateBoardSettings(ctx, companyId, patch));
    },
  },

  'api-key create': {
    usage: '--company ID --scopes a,b --label LABEL [--expires-at ISO]',
    summary: 'Create an API key (default lifetime one year). Prints it with rawKey: shown this once only.',
    options: {
      company: { type: 'string' },
      scopes: { type: 'string' },
      label: { type: 'string' },
      'expires-at': { type: 'string' },
    },
    async run(values, config) {
      const input = {
        companyId: requiredId(values, 'company'),
        scopes: required(values, 'scopes')
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
        label: required(values, 'label'),
        expiresAt: optional(values, 'expires-at'),
      };
      const { createApiKey } = await import('./modules/api-keys/service.ts');
      return withServices(config, (ctx) => createApiKey(ctx, input));
    },
  },

  'api-key revoke': {
    usage: '--id ID',
    summary: 'Revoke an API key: it fails with 401 from its next request on. Prints the key.',
    options: { id: { type: 'string' } },
    async run(values, config) {
      const id = requiredId(values, 'id');
      const { revokeApiKey } = await import('./modules/api-keys/service.ts');
      return withServices(config, (ctx) => revokeApiKey(ctx, undefined, id));
    },
  },

  'api-key list': {
    usage: '--company ID',
    summary: "List a company's API keys, newest first (revoked and expired ones with active false).",
    options: { company: { type: 'string' } },
    async run(values, config) {
      const companyId = requiredId(values, 'company');
      const { getCompany } = await import('./modules/companies/service.ts');
      const { listApiKeys } = await import('./modules/api-keys/service.ts');
      return withServices(config, async (ctx) => {
        await getCompany(ctx, companyId); // an unknown company is an error, not an empty list
        return listApiKeys(ctx, companyId);
      });
    },
  },

  'member invite': {
    usage: '--company ID --email EMAIL --role ADMIN|MEMBER',
    summary:
      'Invite a person to a company. They accept by signing in with that (verified) e-mail address. Prints the invitation.',
    options: { company: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run(values, config) {
      const input = {
        companyId: requiredId(values, 'company'),
        email: required(values, 'email'),
        role: required(values, 'role'),
        invitedBy: null,
      };
      const { inviteMember } = await import('./modules/users/members.ts');
      return withServices(config, (ctx) => inviteMember(ctx, input));
    },
  },

  'api-key rename': {
    usage: '--id ID --label LABEL',
    summary: "Change an API key's label (its scopes never change). Prints the key.",
    options: { id: { type: 'string' }, label: { type: 'string' } },
    async run(values, config) {
      const id = requiredId(values, 'id');
      const label = required(values, 'label');
      const { relabelApiKey } = await import('./modules/api-keys/service.ts');
      return withServices(config, (ctx) => relabelApiKey(ctx, undefined, id, { label }));
    },
  },

  'client create': {
    usage: '--name NAME --redirect-uri URI [--redirect-uri URI ...] [--public]',
    summary:
      'Register an OAuth client (authorization code + PKCE). Prints it; a confidential client with its clientSecret, shown this once only.',
    options: { name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, public: { type: 'boolean' } },
    async run(values, config) {
      const redirectUris = (values['redirect-uri'] as string[] | undefined) ?? [];
      if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required (repeat it for several)');
      const input = { name: required(values, 'name'), redirectUris, public: values.public === true };
      const { createClient } = await import('./modules/oauth/clients.ts');
      return withServices(config, (ctx) => createClient(ctx, input));
    },
  },

  'client list': {
    usage: '',
    summary: 'List the registered OAuth clients (never their secrets). The dashboard is built in and not listed.',
    options: {},
    async run(_values, config) {
      const { listClients } = await import('./modules/oauth/clients.ts');
      return withServices(config, (ctx) => listClients(ctx));
    },
  },

  'oidc rotate-keys': {
    usage: '',
    summary:
      'Make a new token-signing key and cookie key current; the two before each keep verifying. Servers use them from their next start (restart them one by one).',
    options: {},
    async run(_values, config) {
      if (config.oidcJwksFile) throw new UsageError('OIDC_JWKS_FILE is set: the signing keys come from that file, rotate them there');
      const { rotateOidcKeys } = await import('./modules/oauth/keys.ts');
      return withServices(config, (ctx) => rotateOidcKeys(ctx));
    },
  },

  'webhooks deliver': {
    usage: '',
    summary:
      'One delivery pass, then exit: fan out pending events and send every webhook delivery due now (each once). For a deployment without a running worker (from cron), or to flush before maintenance; safe beside running workers.',
    options: {},
    async run(_values, config, io) {
      const { deliveryDeps, runWebhookWorkerOnce } = await import('./modules/webhooks/delivery-worker.ts');
      const { createLogger } = await import('./shared/logger.ts');
      // Log lines on stderr: stdout carries the JSON result.
      const log = createLogger(config, 'cli', { write: (line: string) => io.stderr(line) });
      return withDeps(config, (deps) =>
        runWebhookWorkerOnce(deliveryDeps({ ...deps.ctx, config, log, transport: deps.webhookTransport, metrics: deps.metrics.deliveries })),
      );
    },
  },

  migrate: {
    usage: '',
    summary: 'Apply pending database migrations. Prints the names applied (the server also migrates at start).',
    options: {},
    async run(_values, config) {
      const { openDatabase } = await import('./db/client.ts');
      const { migrate } = await import('./db/migrate.ts');
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        return { applied: await migrate(database) };
      } finally {
        await database.close();
      }
    },
  },

  seed: {
    usage: '--listings N --candidates N --applications N [--company ID]',
    summary:
      'Generate a large synthetic data set (benchmarks) by set-based SQL; no outbox events. Progress on stderr, counts on stdout.',
    options: {
      listings: { type: 'string' },
      candidates: { type: 'string' },
      applications: { type: 'string' },
      company: { type: 'string' },
    },
    async run(values, config, io) {
      const count = (name: string) => {
        const value = Number(required(values, name));
        if (!Number.isInteger(value) || value < 0) throw new UsageError(`--${name} must be a whole number`);
        return value;
      };
      const options = {
        listings: count('listings'),
        candidates: count('candidates'),
        applications: count('applications'),
        companyId: values.company === undefined ? undefined : requiredId(values, 'company'),
        onProgress: (message: string) => io.stderr(`${message}\n`),
      };
      const { seedBulk, SeedBulkError } = await import('./tooling/demo/seed-bulk.ts');
      // Set-based inserts of a million rows rightly run longer than any request may.
      return withDeps({ ...config, dbStatementTimeoutMs: 0 }, async (deps) => {
        try {
          return await seedBulk(deps, options);
        } catch (error) {
          if (error instanceof SeedBulkError) throw new UsageError(error.message);
          throw error;
        }
      });
    },
  },

  backup: {
    usage: '--out FILE [--without-files]',
    summary:
      'Embedded database only, while the server is stopped: write a backup of DATA_DIR (a gzipped tarball, including the key file and the uploaded files kept in DATA_DIR/files) to FILE. With FILES_DIR outside DATA_DIR, refused unless --without-files (back that directory up beside it).',
    options: { out: { type: 'string' }, 'without-files': { type: 'boolean' } },
    async run(values, config) {
      const out = required(values, 'out');
      if (config.databaseUrl) throw new UsageError('backup is for the embedded database; for PostgreSQL use pg_dump');
      const { backupEmbedded, isInside } = await import('./db/transfer.ts');
      const store = config.fileStore;
      let files: string;
      if (store.kind === 's3') {
        files = `not in the backup: they are in the S3 bucket ${store.bucket} (keep it versioned or replicated)`;
      } else if (isInside(config.dataDir, store.dir)) {
        files = `included (${store.dir})`;
      } else if (values['without-files'] === true) {
        files = `not in the backup: back up ${store.dir} beside it (FILES_DIR is outside DATA_DIR)`;
      } else {
        throw new UsageError(
          `FILES_DIR (${store.dir}) is outside DATA_DIR, so the backup cannot carry the uploaded files: back that directory up beside it and pass --without-files`,
        );
      }
      return { file: out, ...(await backupEmbedded(config.dataDir, out)), files };
    },
  },

  restore: {
    usage: '--in FILE',
    summary:
      'Embedded database only: restore a backup into DATA_DIR, which must be empty or absent, then apply pending migrations. Files that were in DATA_DIR/files come back there.',
    options: { in: { type: 'string' } },
    async run(values, config) {
      const file = required(values, 'in');
      if (config.databaseUrl) throw new UsageError('restore is for the embedded database; unset DATABASE_URL');
      const { restoreEmbedded } = await import('./db/transfer.ts');
      return { dataDir: config.dataDir, ...(await restoreEmbedded(file, config.dataDir)) };
    },
  },

  'export-to-postgres': {
    usage: '--database-url URL [--files-to s3]',
    summary:
      'Copy everything from the embedded database in DATA_DIR (server stopped) into an empty PostgreSQL database, in one transaction. Prints rows per table. --files-to s3: first copy the uploaded files from FILES_DIR into the S3 bucket the S3_* settings name.',
    options: { 'database-url': { type: 'string' }, 'files-to': { type: 'string' } },
    async run(values, config, io) {
      const url = required(values, 'database-url');
      if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('--database-url must be a postgres:// URL');
      const filesTo = optional(values, 'files-to');
      if (filesTo !== undefined && filesTo !== 's3') throw new UsageError(`--files-to must be s3, got "${filesTo}"`);
      const source = config.fileStore;
      let target: S3StoreSettings | undefined;
      if (filesTo === 's3') {
        if (source.kind === 's3') throw new UsageError('FILE_STORE is s3 already: the files are where the PostgreSQL servers will read them; leave out --files-to');
        try {
          target = s3StoreSettings(io.env);
        } catch (error) {
          if (error instanceof ConfigError) throw new UsageError(`--files-to s3: ${error.message}`);
          throw error;
        }
      }
      const { exportToPostgres } = await import('./db/transfer.ts');
      const { DirectoryFileStore } = await import('./adapters/file-store/directory.ts');
      const { S3FileStore } = await import('./adapters/file-store/s3.ts');
      const from = source.kind === 'directory' ? new DirectoryFileStore(source.dir) : undefined;
      const to = target ? new S3FileStore(target) : undefined;
      try {
        const result = await exportToPostgres(config.dataDir, url, from && to ? { files: { from, to } } : {});
        return {
          ...result,
          ...(source.kind === 'directory' && !to
            ? {
                filesNote: `uploaded files stay in ${source.dir}: every PostgreSQL server and worker must see that directory as FILES_DIR, or copy them to S3 (docs/decisions.md, "Files in backup and export")`,
              }
            : {}),
          // Webhook secrets stay sealed: the servers on PostgreSQL need the same key.
          encryptionKey: config.encryptionKey
            ? 'unchanged: keep ENCRYPTION_KEY as it is for the PostgreSQL servers'
            : `set ENCRYPTION_KEY on the PostgreSQL servers to the contents of ${config.dataDir}/encryption.key`,
        };
      } finally {
        await to?.close();
      }
    },
  },

  'encryption-key generate': {
    usage: '',
    summary: 'Print a new random key for ENCRYPTION_KEY (32 bytes, base64). Changes nothing.',
    options: {},
    needsConfig: false,
    async run() {
      const { generateEncryptionKey } = await import('./shared/secret-box.ts');
      return { encryptionKey: generateEncryptionKey() };
    },
  },

  'encryption-key rotate': {
    usage: '',
    summary:
      'Re-encrypt every stored secret under the current key. With ENCRYPTION_KEY: set the new key there and the old one in ENCRYPTION_KEY_PREVIOUS first. Without: replaces the key file in DATA_DIR.',
    options: {},
    async run(_values, config) {
      const { loadEncryptionKeys, rotateKeyFile } = await import('./shared/encryption-keys.ts');
      const { resealSigningSecrets } = await import('./modules/webhooks/service.ts');
      const { source } = loadEncryptionKeys(config);
      return withServices(config, async (ctx) => {
        // Every kind of secret kept sealed is re-sealed here (OAuth client secrets join this list).
        const { resealOidcKeys } = await import('./modules/oauth/keys.ts');
        const { resealStoredResponses } = await import('./infra/idempotency/repo.ts');
        const reseal = async (box: typeof ctx.secrets) =>
          (await resealSigningSecrets(ctx, { box })) + (await resealOidcKeys(ctx, box)) + (await resealStoredResponses(ctx.db, box));
        if (source.kind === 'setting') {
          return { keySource: 'ENCRYPTION_KEY', keyId: ctx.secrets.currentKeyId, resealed: await reseal(ctx.secrets) };
        }
        let keyId = '';
        const resealed = await rotateKeyFile(config.dataDir, async (box) => {
          keyId = box.currentKeyId;
          return reseal(box);
        });
        return { keySource: source.path, keyId, resealed };
      });
    },
  },

  help: {
    usage: '',
    summary: 'Show this help.',
    options: {},
    async run(_values, _config, io) {
      io.stdout(helpText());
    },
  },
};

function usageLine(name: string): string {
  return `npm run -s cli -- ${name} ${commands[name].usage}`.trimEnd();
}

function helpText(): string {
  const lines = Object.keys(commands).map((name) => `  ${usageLine(name)}\n      ${commands[name].summary}`);
  return `Operator commands for the recruiting API.

${lines.join('\n')}

Results are JSON on stdout; errors go to stderr with a non-zero exit. Add --help to a command for its usage.
Scopes: ${ALL_SCOPES.join(', ')}.
Database: PostgreSQL when DATABASE_URL is set, else the embedded database in DATA_DIR (default ./data),
which works only while no server runs on it.
`;
}

/** "api-key create --label x" -> the command "api-key create" and its remaining arguments. */
function findCommand(argv: string[]): { name: string; args: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (argv.length >= words && Object.hasOwn(commands, name)) return { name, args: argv.slice(words) };
  }
  return undefined;
}

/** Runs one command line and answers the exit code. The entry below runs it for the process. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    (argv.length === 0 ? io.stderr : io.stdout)(helpText());
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  const group = Object.keys(commands).filter((name) => name.startsWith(`${argv[0]} `));
  if (!found && group.length > 0 && (argv.length === 1 || argv[1] === '--help' || argv[1] === '-h')) {
    // `company --help`: the commands of the group. Without --help a subcommand is missing (exit 2).
    const text = `${group.map((name) => `  ${usageLine(name)}\n      ${commands[name].summary}`).join('\n')}\n`;
    if (argv.length === 1) {
      io.stderr(`Error: "${argv[0]}" needs a command:\n${text}`);
      return 2;
    }
    io.stdout(text);
    return 0;
  }
  if (!found) {
    io.stderr(`Error: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${helpText()}`);
    return 2;
  }
  const command = commands[found.name];
  try {
    let values: Values;
    try {
      ({ values } = parseArgs({
        args: found.args,
        options: { ...command.options, help: { type: 'boolean', short: 'h' } },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (values.help) {
      io.stdout(`${usageLine(found.name)}\n    ${command.summary}\n`);
      return 0;
    }
    const result = await command.run(values, command.needsConfig === false ? (undefined as never) : loadConfig(io.env), io);
    if (result !== undefined) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    return report(error, found.name, io);
  }
}

function report(error: unknown, name: string, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr(`Error: ${error.message}\nUsage: ${usageLine(name)}\n`);
    return 2;
  }
  if (error instanceof DomainError) {
    const details = (error.details ?? []).map((detail) => `\n  - ${detail.field}: ${detail.message}`).join('');
    io.stderr(`Error: ${error.message}${details}\n`);
  } else if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    (error instanceof Error && ['DatabaseConnectError', 'TransferError', 'EncryptionKeyError'].includes(error.name)) // not imported: see above
  ) {
    io.stderr(`Error: ${error.message}\n`);
  } else {
    io.stderr(`Error: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  return 1;
}

/**
 * A stream whose reader went away (`npm run -s cli -- company list | head -1`): further output is
 * dropped instead of an EPIPE error event killing the process with a stack trace; the command
 * still finishes (a write it started is not cut off half-way) and exits with its own code.
 */
function quietWhenClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true;
    else throw error;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

if (import.meta.main) {
  process.exitCode = await runCli(process.argv.slice(2), {
    env: process.env,
    stdout: quietWhenClosed(process.stdout),
    stderr: quietWhenClosed(process.stderr),
  });
}
