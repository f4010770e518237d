import { fileTypeFromBuffer } from 'file-type';
import { lastExtension } from '../../../shared/rules/uploads.ts';

/** For extensions that have a signature, the types `file-type` may report for them. */
const SIGNATURES: Record<string, readonly string[]> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  jpe: ['jpg'],
  png: ['png', 'apng'],
  gif: ['gif'],
  bmp: ['bmp'],
  webp: ['webp'],
  heic: ['heic', 'avif'],
  tif: ['tif'],
  tiff: ['tif'],
  pdf: ['pdf', 'ai'],
  doc: ['cfb'],
  docx: ['docx', 'zip'],
  odt: ['odt', 'zip'],
  rtf: ['rtf'],
  xlsx: ['xlsx', 'zip'],
  zip: ['zip'],
  mp4: ['mp4', 'm4v', 'mov', 'm4a', 'f4v', '3gp'],
  m4v: ['m4v', 'mp4', 'mov'],
  mov: ['mov', 'mp4', 'qt'],
  qt: ['mov', 'mp4'],
  ogv: ['ogv', 'ogg', 'ogx', 'ogm'],
  ogg: ['ogg', 'ogv', 'ogx', 'ogm', 'opus', 'oga'],
  mkv: ['mkv', 'webm'],
  webm: ['webm', 'mkv'],
  mpg: ['mpg', 'mp2', 'mp1'],
  mpeg: ['mpg', 'mp2', 'mp1'],
  avi: ['avi'],
  wmv: ['asf', 'wmv'],
  '3gp': ['3gp', 'mp4', '3g2'],
  '3g2': ['3g2', '3gp', 'mp4'],
  flv: ['flv'],
  mts: ['mts', 'mpg'],
  m2ts: ['mts', 'mpg'],
  ts: ['mts', 'mpg'],
};

/** Text formats have no signature: their head must be text (no NUL byte, nothing `file-type` recognizes). */
const TEXT_EXTENSIONS = new Set(['txt', 'csv', 'svg', 'tsv', 'json', 'md', 'xml']);

/** Types that are programs whatever the name says; refused by every uploader. */
const EXECUTABLE_TYPES = new Set([
  'exe',
  'elf',
  'macho',
  'dll',
  'class',
  'dex',
  'wasm',
  'msi',
  'apk',
  'jar',
  'swf',
  'lnk',
  'deb',
  'rpm',
  'dmg',
  'xpi',
  'crx',
]);

/** Bytes of the file's head that the type check reads. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Whether a file's magic bytes agree with its name (docs/requirements/platform.md §5.7: the Content-Type header is never trusted).
 * @param head the first bytes of the file (up to {@link SNIFF_BYTES})
 * @returns the type to record (mime), or null when the content is not what the name says
 */
export async function contentTypeFor(fileName: string, head: Uint8Array): Promise<string | null> {
  const ext = lastExtension(fileName);
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (found && EXECUTABLE_TYPES.has(found.ext)) return null;
  const expected = SIGNATURES[ext];
  if (expected) return found && expected.includes(found.ext) ? found.mime : null;
  if (TEXT_EXTENSIONS.has(ext)) {
    if (found || head.includes(0)) return null;
    if (ext === 'svg') return looksLikeSvg(head) ? 'image/svg+xml' : null;
    return ext === 'csv' ? 'text/csv' : 'text/plain';
  }
  // An extension we have no rule for (the generic uploader takes any type): trust only the bytes.
  return found?.mime ?? 'application/octet-stream';
}

function looksLikeSvg(head: Uint8Array): boolean {
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text);
}
