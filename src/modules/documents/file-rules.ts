// Pure rules of candidate files (docs/decisions.md, "Candidate files"): the kinds, how a client's
// file name is made safe to keep and to send back, which types are accepted (decided from the
// bytes, never from a name or a header), and the Content-Disposition of a download.
import { basename } from 'node:path/posix';
import { fileTypeFromBuffer } from 'file-type';

export const FILE_KINDS = ['RESUME', 'COVER_LETTER', 'PORTFOLIO', 'OTHER'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const MAX_FILE_NAME_LENGTH = 255;

/**
 * The name kept: its last path segment (either slash), NFC, without control or bidirectional
 * formatting characters, trimmed of spaces and leading dots, at most 255 characters (the
 * extension kept when it is cut). Nothing left: "file".
 */
export function sanitizeFileName(raw: string): string {
  const lastSegment = basename(raw.replaceAll('\\', '/'));
  let name = lastSegment
    .normalize('NFC')
    // C0 and C1 controls, DEL, bidirectional overrides and isolates, zero-width and BOM characters.
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if ([...name].length > MAX_FILE_NAME_LENGTH) {
    const chars = [...name];
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? [...name.slice(dot)] : [];
    name = chars.slice(0, MAX_FILE_NAME_LENGTH - extension.length).join('') + extension.join('');
  }
  return name === '' ? 'file' : name;
}

/** `Content-Disposition: attachment` with the name in RFC 6266 / 5987 form, and a plain ASCII fallback. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** An accepted type: how it is named in answers and the content type it is stored and served with. */
export interface AcceptedType {
  format: 'PDF' | 'DOC' | 'DOCX' | 'ODT' | 'RTF' | 'TXT' | 'PNG' | 'JPEG';
  contentType: string;
}

/** file-type's answer (its `ext`) for each accepted binary format. */
const BY_DETECTED_EXTENSION: Record<string, AcceptedType> = {
  pdf: { format: 'PDF', contentType: 'application/pdf' },
  // Word 97-2003: a Compound File (file-type says `cfb`, which Excel's and Outlook's old formats are too).
  cfb: { format: 'DOC', contentType: 'application/msword' },
  docx: { format: 'DOCX', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  odt: { format: 'ODT', contentType: 'application/vnd.oasis.opendocument.text' },
  rtf: { format: 'RTF', contentType: 'application/rtf' },
  png: { format: 'PNG', contentType: 'image/png' },
  jpg: { format: 'JPEG', contentType: 'image/jpeg' },
};

export const PLAIN_TEXT: AcceptedType = { format: 'TXT', contentType: 'text/plain; charset=utf-8' };

export const ACCEPTED_FORMATS = 'PDF, DOC, DOCX, ODT, RTF, TXT (UTF-8), PNG, JPEG';

/** Bytes of the start of a file its type is decided from (a DOCX's `[Content_Types].xml` is its first entry). */
export const SNIFF_BYTES = 64 * 1024;

/** Text a plain-text file may not hold: NUL and the C0 controls but tab, line feed, vertical tab, form feed, carriage return; DEL. */
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;

/**
 * Checks a text file as it streams: valid UTF-8 throughout, no NUL or other control character,
 * and not markup (a first character `<`: HTML, XML and SVG are not plain text, and a browser might
 * render them). `push` and `end` answer false at the first bad byte.
 */
export class PlainTextCheck {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  #started = false;

  push(chunk: Uint8Array): boolean {
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: true });
    } catch {
      return false;
    }
    return this.#check(text);
  }

  end(): boolean {
    try {
      return this.#check(this.#decoder.decode());
    } catch {
      return false;
    }
  }

  #check(text: string): boolean {
    if (CONTROL.test(text)) return false;
    if (!this.#started) {
      const trimmed = text.replace(/^\ufeff/, '').trimStart();
      if (trimmed.length > 0) {
        this.#started = true;
        if (trimmed.startsWith('<')) return false;
      }
    }
    return true;
  }
}

/**
 * The accepted type of a file from its first bytes (`head`: SNIFF_BYTES, or the whole file when
 * shorter), or undefined: refused. Plain text is the fallback for bytes no binary format claims;
 * the caller checks the rest of a text file as it streams (PlainTextCheck).
 */
export async function detectType(head: Uint8Array): Promise<AcceptedType | undefined> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return BY_DETECTED_EXTENSION[detected.ext];
  const check = new PlainTextCheck();
  // The head may end inside a character: only what it decodes so far is judged here.
  return check.push(head) ? PLAIN_TEXT : undefined;
}
