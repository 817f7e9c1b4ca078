// A stored first answer is kept sealed (AES-256-GCM under ENCRYPTION_KEY, src/shared/secret-box.ts):
// it may carry a secret shown only once (a new API key, a webhook signing secret) or a person's
// data, and a database, a backup or a replica must not hand them out. Pure.
//
// The purpose (authenticated, not secret) names the company and the key, so an answer sealed for
// one row cannot be opened as another's. Answers stored in clear by an earlier release (at most
// 24 hours old) open as they are, and are sealed by the next encryption-key rotation.
import type { SecretBox } from '../../shared/secret-box.ts';

function purposeOf(companyId: string, key: string): string {
  return `idempotent-response:${companyId}:${key}`;
}

export function sealResponse(box: SecretBox, companyId: string, key: string, body: string): string {
  return box.seal(body, purposeOf(companyId, key));
}

export function openResponse(box: SecretBox, companyId: string, key: string, stored: string): string {
  return box.open(stored, purposeOf(companyId, key));
}
