// @recruiting/sdk: a typed client for the Recruiting Public API.
export {
  createRecruitingClient,
  RecruitingApiError,
  type ErrorEnvelope,
  type ListItem,
  type ListPath,
  type PaginateOptions,
  type RecruitingClient,
  type RecruitingClientOptions,
} from './client.ts';
export {
  downloadCandidateFile,
  fileNameOf,
  uploadCandidateFile,
  type CandidateFile,
  type CandidateFileKind,
  type DownloadedFile,
  type UploadCandidateFileOptions,
} from './files.ts';
export { retryAfterMs, withRetries, type RetryOptions } from './retry.ts';
/** This SDK's version: the API release it was generated from (the same number). */
export { SDK_VERSION } from './version.ts';
export {
  verifyWebhook,
  Webhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from './webhooks.ts';
export type { components, operations, paths, webhooks } from './schema.ts';

import type { components } from './schema.ts';
/** The API's named schemas: `Schemas['JobListing']`, `Schemas['Application']`... */
export type Schemas = components['schemas'];
