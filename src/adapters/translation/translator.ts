// The machine-translation port. The job listings module asks it for texts in another language;
// which service answers is configuration, turned into a Translator once by src/deps.ts: none by
// default, in which case no AI translations exist at all.

export interface Translator {
  /**
   * The texts translated from one BCP 47 language into another, in the same order. Throws
   * TranslationFailedError when the service cannot answer; callers fall back to the originals.
   */
  translate(texts: string[], from: string, to: string): Promise<string[]>;
}

export class TranslationFailedError extends Error {}
