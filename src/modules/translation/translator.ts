// The machine-translation port. The job listings module asks it for texts in another language;
// which service answers is configuration (src/config.ts): none by default, in which case no AI
// translations exist at all.
import type { Config } from '../../config.ts';
import { createLibreTranslateTranslator } from './libretranslate.ts';

export interface Translator {
  /**
   * The texts translated from one BCP 47 language into another, in the same order. Throws
   * TranslationFailedError when the service cannot answer; callers fall back to the originals.
   */
  translate(texts: string[], from: string, to: string): Promise<string[]>;
}

export class TranslationFailedError extends Error {}

/** The translator the configuration switches on, or undefined when none is configured. */
export function translatorFromConfig(config: Pick<Config, 'translatorUrl' | 'translatorApiKey'>): Translator | undefined {
  if (!config.translatorUrl) return undefined;
  return createLibreTranslateTranslator({ url: config.translatorUrl, apiKey: config.translatorApiKey });
}
