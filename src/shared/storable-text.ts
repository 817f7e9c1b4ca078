// What PostgreSQL cannot store in text or jsonb: a NUL character, a lone UTF-16 surrogate. Every
// way in refuses such a value with a clear error (the request validation, the authorization
// server's storage, a sign-in's identity) instead of letting the database fail with a 500. Pure.

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (!value.isWellFormed()) return 'must not contain lone UTF-16 surrogates';
  return undefined;
}

/** Whether any string (or object key) in the value cannot be stored, down to `maxDepth` levels. */
export function holdsUnstorableText(value: unknown, maxDepth = 64, depth = 0): boolean {
  if (typeof value === 'string') return unstorableText(value) !== undefined;
  if (value === null || typeof value !== 'object' || depth > maxDepth) return false;
  if (Array.isArray(value)) return value.some((item) => holdsUnstorableText(item, maxDepth, depth + 1));
  for (const key of Object.keys(value)) {
    if (unstorableText(key) !== undefined || holdsUnstorableText((value as Record<string, unknown>)[key], maxDepth, depth + 1)) return true;
  }
  return false;
}
