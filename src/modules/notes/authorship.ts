// Who may change a note (pure; docs/decisions.md, "Notes: authors and who may change them").
// A note's author is a user or an API key. An API key counts as the author of the notes it wrote
// (the same key id, not "any key of the company", and not the person who made the key). Editing is
// the author's alone. Deleting: the author, a company ADMIN (a user), or any API key holding
// candidates:write (a key is an integration acting for the whole company, as an ADMIN does).

export interface NoteAuthor {
  authorUserId: string | null;
  authorApiKeyId: string | null;
}

export interface Caller {
  userId?: string | undefined;
  apiKeyId: string | null;
  role?: 'ADMIN' | 'MEMBER' | undefined;
  scopes: readonly string[];
}

/** The caller wrote the note: the same user, or the same API key. */
export function isAuthor(note: NoteAuthor, caller: Caller): boolean {
  if (caller.userId) return note.authorUserId === caller.userId;
  return caller.apiKeyId !== null && note.authorApiKeyId === caller.apiKeyId;
}

export function mayEdit(note: NoteAuthor, caller: Caller): boolean {
  return isAuthor(note, caller);
}

export function mayDelete(note: NoteAuthor, caller: Caller): boolean {
  if (isAuthor(note, caller)) return true;
  if (caller.userId) return caller.role === 'ADMIN';
  return caller.scopes.includes('candidates:write');
}
