// A Translator for any LibreTranslate-compatible HTTP API (POST {url}/translate with
// { q, source, target, format, api_key } answering { translatedText }). LibreTranslate names
// languages by their primary subtag (de, pt, zh), so region and script subtags are dropped on the
// way out; the translation is still stored under the tag the caller asked for.
import { TranslationFailedError, type Translator } from './translator.ts';

export interface LibreTranslateOptions {
  /** Base URL of the service, e.g. https://translate.example.com */
  url: string;
  apiKey?: string | undefined;
  /** Per request; a slow translator must not hold a GET for long. Default 5 s. */
  timeoutMs?: number;
}

const primary = (tag: string) => tag.split('-')[0].toLowerCase();

export function createLibreTranslateTranslator(options: LibreTranslateOptions): Translator {
  const endpoint = new URL('translate', options.url.endsWith('/') ? options.url : `${options.url}/`).toString();
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    async translate(texts, from, to) {
      if (texts.length === 0) return [];
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            q: texts,
            source: primary(from),
            target: primary(to),
            format: 'text',
            ...(options.apiKey ? { api_key: options.apiKey } : {}),
          }),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        throw new TranslationFailedError(`translator unreachable: ${(error as Error).name}`, { cause: error });
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new TranslationFailedError(`translator answered ${response.status}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        throw new TranslationFailedError('translator answered something that is not JSON', { cause: error });
      }
      const translated = (body as { translatedText?: unknown }).translatedText;
      // With q as an array LibreTranslate answers an array; one text may come back as a string.
      const list = typeof translated === 'string' ? [translated] : translated;
      if (!Array.isArray(list) || list.length !== texts.length || list.some((item) => typeof item !== 'string')) {
        throw new TranslationFailedError('translator answered an unexpected shape');
      }
      return list as string[];
    },
  };
}
