// Entity tags (docs/decisions.md, "Entity tags"): a strong ETag is a digest of the exact
// representation answered (the view object and, where texts depend on the language asked for, its
// Content-Language), so the same state in the same language always has the same tag, and `If-Match`
// can be checked by building the current representation again.
import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

export function entityTag(representation: unknown, variant = ''): string {
  const digest = createHash('sha256').update(JSON.stringify(representation)).update('\n').update(variant).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

/**
 * Whether an If-Match header value lets a change go ahead (RFC 9110, 13.1.1): `*`, or a list of
 * tags one of which is the current one by strong comparison (a weak tag never matches).
 */
export function ifMatchSatisfied(header: string, current: string): boolean {
  const tags = header.split(',').map((tag) => tag.trim()).filter(Boolean);
  return tags.some((tag) => tag === '*' || tag === current);
}

/**
 * Whether an If-None-Match header value names the current representation (RFC 9110, 13.1.2): `*`,
 * or a list of tags one of which is the current one by weak comparison (`W/` is ignored on both).
 */
export function ifNoneMatchMatches(header: string, current: string): boolean {
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  if (header.trim() === '*') return true;
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => opaque(tag) === opaque(current));
}

export class PreconditionFailedError extends DomainError {
  constructor(message = 'The resource has changed since you read it (If-Match does not match its ETag): read it again') {
    super('PRECONDITION_FAILED', message);
  }
}
