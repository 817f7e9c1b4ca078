/** What must never appear in a log line: signing secrets, API keys, bearer tokens. */
export const SECRET_PATTERNS: RegExp[] = [
  /whsec_(?!\[redacted\])[A-Za-z0-9+/=_-]{8,}/,
  /rk_live_(?!\[redacted\])[A-Za-z0-9]{8,}/,
  /\bBearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/i,
];

/** The lines of `text` that hold a secret, each cut short and masked so the report leaks nothing. */
export function linesWithSecrets(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => SECRET_PATTERNS.some((pattern) => pattern.test(line)))
    .map((line) => SECRET_PATTERNS.reduce((masked, pattern) => masked.replace(new RegExp(pattern.source, 'gi'), '<SECRET>'), line).slice(0, 300));
}
