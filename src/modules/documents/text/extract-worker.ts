// Runs inside a worker thread (extract.ts starts it): turns one document's bytes into plain text.
// A crafted file can only exhaust this thread's own bounded heap or its time, never the worker
// process's: the parent terminates the thread at its deadline.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';
import mammoth from 'mammoth';

interface Job {
  bytes: Uint8Array;
  contentType: string;
  maxPages: number;
}

async function textOf({ bytes, contentType, maxPages }: Job): Promise<string | null> {
  switch (contentType) {
    case 'application/pdf': {
      // Page by page (not unpdf's extractText, which reads every page): the page cap bounds the work.
      const pdf = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false });
      try {
        const pages: string[] = [];
        for (let number = 1; number <= Math.min(pdf.numPages, maxPages); number++) {
          const page = await pdf.getPage(number);
          const content = await page.getTextContent();
          pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
          page.cleanup();
        }
        return pages.join('\n');
      } finally {
        await pdf.destroy();
      }
    }
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
    case 'text/plain':
      return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    default:
      // DOC, ODT, RTF and images: no text is taken from them (yet).
      return null;
  }
}

textOf(workerData as Job).then(
  (text) => parentPort!.postMessage({ ok: true, text }),
  (error: unknown) => parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) }),
);
