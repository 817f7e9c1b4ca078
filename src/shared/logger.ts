// One logger setup for every process (server, worker): pino, JSON lines for log collectors, or
// readable lines through pino-pretty when stdout is a terminal. Keys, tokens and cookies are
// redacted by path; e-mail addresses anywhere in a line (messages, fields, URLs) are masked, so a
// candidate's address never reaches the logs.
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config.ts';
import { EMAIL_PATTERN, safeErrorForLogger, safeErrorSerializer, safeRequestSerializer } from './log-safety.ts';

const EMAIL_MASK = '[email]';

/** Masks e-mail-like strings inside any JSON-like value (bounded depth: logs are small objects). */
export function maskEmails(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(EMAIL_PATTERN, EMAIL_MASK);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  // Errors first lose the values they carry (SQL parameters, key values: see log-safety.ts).
  if (value instanceof Error) return safeErrorSerializer(value);
  if (Array.isArray(value)) return value.map((item) => maskEmails(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskEmails(item, depth + 1)]));
}

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'secret',
  'rawKey',
];

export function loggerOptions(config: Pick<Config, 'logLevel'>, name: string, pretty: boolean): LoggerOptions {
  return {
    name,
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Errors without the values they carry (SQL parameters, key values): see log-safety.ts.
    // Requests without the credentials a URL may carry (see redactUrl); Fastify's own serializer
    // would log the URL as sent.
    serializers: { err: safeErrorForLogger, error: safeErrorForLogger, req: safeRequestSerializer },
    formatters: {
      // pino formats before it serializes, and maskEmails would flatten a Fastify request into its
      // own fields (no method, no URL): the request is serialized first.
      log: (object) => maskEmails(object.req === undefined ? object : { ...object, req: safeRequestSerializer(object.req as never) }) as Record<string, unknown>,
    },
    hooks: {
      // The message strings too (formatters.log sees only the fields).
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? arg.replace(EMAIL_PATTERN, EMAIL_MASK) : arg)) as Parameters<typeof method>,
        );
      },
    },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  };
}

/**
 * The process's logger. `destination` (tests) receives JSON lines; otherwise stdout, pretty when it
 * is a terminal.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string, destination?: DestinationStream): Logger {
  if (destination) return pino(loggerOptions(config, name, false), destination);
  return pino(loggerOptions(config, name, Boolean(process.stdout.isTTY)));
}
