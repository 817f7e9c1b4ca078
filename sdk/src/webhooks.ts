// Webhook verification: the Standard Webhooks verifier (the `standardwebhooks` package), typed with
// this API's event catalogue (the OpenAPI `webhooks` section).
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './schema.ts';

export { Webhook, WebhookVerificationError };

/** Every event type this API sends. */
export type WebhookEventType = keyof webhooks;

/** The body of one event type, as sent. */
export type WebhookEventOf<T extends WebhookEventType> =
  webhooks[T]['post']['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never;

/** Any event; narrow it on `type`. */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

/**
 * Checks a delivery's signature (webhook-id, webhook-timestamp within five minutes, webhook-signature)
 * against the subscription's secret (`whsec_...`) and returns the parsed event. Throws
 * WebhookVerificationError when it does not verify. Give the body exactly as received (a string
 * or bytes, not re-serialized JSON).
 */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined> | Headers,
): WebhookEvent {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      flat[name] = value;
    });
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return new Webhook(secret).verify(typeof body === 'string' ? body : body.toString('utf8'), flat) as WebhookEvent;
}
