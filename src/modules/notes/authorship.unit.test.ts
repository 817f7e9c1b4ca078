import { describe, expect, it } from 'vitest';
import { isAuthor, mayDelete, mayEdit } from './authorship.ts';

const USER = 'f6e5d4c3-b2a1-4f0e-9d8c-7b6a5f4e3d2c';
const OTHER_USER = '1e2d3c4b-5a69-4877-8695-a4b3c2d1e0f9';
const KEY = 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d';
const OTHER_KEY = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const byUser = { authorUserId: USER, authorApiKeyId: null };
const byKey = { authorUserId: null, authorApiKeyId: KEY };
const write = ['candidates:read', 'candidates:write'];

describe('note authorship', () => {
  it('a user is the author of their own notes only; a key of the notes it wrote only', () => {
    expect(isAuthor(byUser, { userId: USER, apiKeyId: null, scopes: write })).toBe(true);
    expect(isAuthor(byUser, { userId: OTHER_USER, apiKeyId: null, scopes: write })).toBe(false);
    expect(isAuthor(byKey, { apiKeyId: KEY, scopes: write })).toBe(true);
    expect(isAuthor(byKey, { apiKeyId: OTHER_KEY, scopes: write })).toBe(false);
    // A user is never the author of a key's note, nor a key of a user's.
    expect(isAuthor(byKey, { userId: USER, apiKeyId: null, scopes: write })).toBe(false);
    expect(isAuthor(byUser, { apiKeyId: KEY, scopes: write })).toBe(false);
  });

  it('only the author edits, whatever the role or scopes', () => {
    expect(mayEdit(byUser, { userId: USER, apiKeyId: null, role: 'MEMBER', scopes: [] })).toBe(true);
    expect(mayEdit(byUser, { userId: OTHER_USER, apiKeyId: null, role: 'ADMIN', scopes: write })).toBe(false);
    expect(mayEdit(byUser, { apiKeyId: KEY, scopes: write })).toBe(false);
    expect(mayEdit(byKey, { apiKeyId: OTHER_KEY, scopes: write })).toBe(false);
  });

  it('the author, an ADMIN or a key with candidates:write deletes; a MEMBER only their own', () => {
    expect(mayDelete(byUser, { userId: USER, apiKeyId: null, role: 'MEMBER', scopes: [] })).toBe(true);
    expect(mayDelete(byUser, { userId: OTHER_USER, apiKeyId: null, role: 'ADMIN', scopes: write })).toBe(true);
    expect(mayDelete(byUser, { userId: OTHER_USER, apiKeyId: null, role: 'MEMBER', scopes: write })).toBe(false);
    expect(mayDelete(byUser, { apiKeyId: KEY, scopes: write })).toBe(true);
    expect(mayDelete(byKey, { apiKeyId: OTHER_KEY, scopes: ['candidates:read'] })).toBe(false);
  });
});
