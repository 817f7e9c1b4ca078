// Standard Webhooks signing (https://www.standardwebhooks.com): the receiver recomputes
// HMAC-SHA256 over "id.timestamp.body" with the shared secret and compares. Receivers verify with
// the official `standardwebhooks` libraries, so the format here must match theirs exactly.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ + base64 of 32 random bytes (the spec asks for 24 to 64). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** One signature, "v1,<base64 HMAC-SHA256>", over `${msgId}.${timestampSeconds}.${body}`. */
export function sign(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers. Several secrets (just after a rotation: the new and the old
 * one) give several space-separated signatures; a receiver accepts the message if any matches.
 */
export function signedHeaders(input: {
  msgId: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}): Record<string, string> {
  const seconds = Math.floor(input.timestamp.getTime() / 1000);
  return {
    'webhook-id': input.msgId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': input.secrets.map((secret) => sign(secret, input.msgId, seconds, input.body)).join(' '),
  };
}

/** The JSON body of every webhook (decisions.md): { id, type, timestamp, companyId, data }. */
export function webhookBody(event: {
  id: string;
  type: string;
  occurredAt: Date;
  companyId: string;
  data: unknown;
}): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    companyId: event.companyId,
    data: event.data,
  });
}

/** The secrets that sign now: the current one, and the previous one during its 24 hours. */
export function signingSecrets(
  subscription: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const secrets = [subscription.secret];
  if (subscription.previousSecret && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now) {
    secrets.push(subscription.previousSecret);
  }
  return secrets;
}
