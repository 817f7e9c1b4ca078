// Fetching a URL a client named (a résumé given as a link): the interface services see. Built once
// in src/deps.ts over the webhooks' guarded transport (src/modules/webhooks/transport.ts), so the
// same address guard refuses private, loopback, link-local and reserved addresses, DNS rebinding
// included; a module reaches it through its context, never by importing the webhooks module.

/** Why no answer came (the webhooks' failure kinds). */
export type DownloadFailure = 'blocked_address' | 'dns_failure' | 'connection_refused' | 'timeout' | 'tls_error' | 'connection_reset' | 'network_error';

export type DownloadResult =
  /** A 2xx answer: its body as it arrives. Iterating it fails once the deadline has passed. */
  | { kind: 'body'; contentLength: number | undefined; body: AsyncIterable<Uint8Array>; timedOut(): boolean }
  /** Any other status (redirects are not followed). */
  | { kind: 'status'; statusCode: number }
  /** The URL itself is refused (scheme, credentials, an address not allowed): the reason, for the URL's field. */
  | { kind: 'refused'; problem: string }
  | { kind: 'failure'; failure: DownloadFailure };

export interface UrlDownloader {
  /** GETs the URL: https only (http too where local addresses are allowed), one deadline for the whole answer. */
  download(url: string): Promise<DownloadResult>;
  close(): Promise<void>;
}
