// Text of an uploaded document, for candidate search: PDF (unpdf), DOCX (mammoth) and plain text.
// Extraction runs in a worker thread with its own small heap and a deadline, so a crafted file (a
// PDF that expands without end, a zip bomb in a DOCX) costs at most that thread, which is
// terminated; it runs in the scheduled work, never in a request.
import { Worker } from 'node:worker_threads';

export interface ExtractionLimits {
  /** The thread is terminated after this long. */
  timeoutMs: number;
  /** The thread's old-generation heap. */
  heapMb: number;
  /** Pages read from a PDF. */
  maxPages: number;
  /** Characters kept of the text. */
  maxChars: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 15_000, heapMb: 128, maxPages: 50, maxChars: 200_000 };

export type ExtractionOutcome =
  | { kind: 'text'; text: string }
  /** A type text is not taken from (DOC, ODT, RTF, images). */
  | { kind: 'none' }
  /** Unreadable, too slow or too big: recorded, so it is not tried again and again. */
  | { kind: 'failed'; reason: string };

const WORKER = new URL('./extract-worker.ts', import.meta.url);

export function extractDocumentText(bytes: Uint8Array, contentType: string, limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS): Promise<ExtractionOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: ExtractionOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const worker = new Worker(WORKER, {
      workerData: { bytes, contentType, maxPages: limits.maxPages },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    const timer = setTimeout(() => finish({ kind: 'failed', reason: `took longer than ${limits.timeoutMs} ms` }), limits.timeoutMs);
    worker.on('message', (message: { ok: true; text: string | null } | { ok: false; error: string }) => {
      if (!message.ok) return finish({ kind: 'failed', reason: message.error.slice(0, 200) });
      if (message.text === null) return finish({ kind: 'none' });
      finish({ kind: 'text', text: normalizeText(message.text).slice(0, limits.maxChars) });
    });
    worker.on('error', (error) => finish({ kind: 'failed', reason: error.message.slice(0, 200) }));
    worker.on('exit', (code) => finish({ kind: 'failed', reason: `stopped (exit ${code})` }));
  });
}

/** One space for runs of blanks, no NULs or other control characters (PostgreSQL text refuses NUL). */
function normalizeText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
