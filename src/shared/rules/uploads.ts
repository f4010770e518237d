/**
 * Upload rules of docs/requirements/validation.md "Uploads", shared by the drop zones (early feedback) and the server
 * (the real check, together with the magic bytes).
 */

/** Executable and script types refused by every uploader (docs/requirements/validation.md), lower case, without the dot. */
export const FORBIDDEN_EXTENSIONS: readonly string[] = [
  'exe',
  'bat',
  'msi',
  'js',
  'vbs',
  'ps1',
  'lnk',
  'reg',
  'jar',
  'cmd',
  'com',
  'scr',
  'pif',
  'cpl',
  'msp',
  'mst',
  'hta',
  'wsf',
  'wsh',
  'vbe',
  'jse',
  'psm1',
  'psd1',
  'sh',
  'bash',
  'csh',
  'ksh',
  'zsh',
  'app',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  'apk',
  'ipa',
  'dll',
  'sys',
  'drv',
  'ocx',
  'gadget',
  'inf',
  'scf',
  'url',
  'mjs',
  'cjs',
  'php',
  'phtml',
  'py',
  'pl',
  'rb',
  'asp',
  'aspx',
  'jsp',
  'cgi',
  'html',
  'htm',
  'xhtml',
  'svgz',
  'swf',
  'appref-ms',
  'application',
  'vb',
  'vbscript',
  'ws',
  'msc',
  'msh',
  'xbap',
];

/** What each uploader accepts (docs/requirements/validation.md); an empty list accepts any type the forbidden list allows. */
export const ALLOWED_EXTENSIONS = {
  contest_photo: ['bmp', 'jpg', 'jpeg', 'png', 'svg', 'webp', 'gif'],
  contest_video: [
    'mp4',
    'm4v',
    'mov',
    'qt',
    'ogv',
    'ogg',
    'mkv',
    'webm',
    'mpg',
    'mpeg',
    'avi',
    'wmv',
    '3gp',
    '3g2',
    'flv',
    'mts',
    'm2ts',
    'ts',
  ],
  profile_image: ['jpg', 'jpeg', 'png', 'gif'],
  application_document: ['pdf', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'doc', 'docx', 'odt', 'rtf', 'txt'],
  roster: ['csv', 'txt'],
  any: [],
} as const satisfies Record<string, readonly string[]>;

export type UploadPurpose = keyof typeof ALLOWED_EXTENSIONS;

/**
 * What a file name is kept and shown without (docs/security.md "Control characters in text"): the
 * C0 and C1 controls (tab, CR and LF among them) and DEL, the line and paragraph separators
 * U+2028/U+2029, the bidirectional embedding, override and isolate controls U+202A-U+202E and
 * U+2066-U+2069, and the direction marks U+200E, U+200F and U+061C.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const FILE_NAME_DROPPED = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
/** Longest uploaded file name kept, in UTF-16 code units. */
export const FILE_NAME_MAX = 255;

/**
 * An uploaded file's name as the product keeps and shows it (docs/security.md "Control characters
 * in text"): the name a browser sent without control characters, bidirectional controls or
 * direction marks (so '\u202Ecod.pdf', shown as 'fdp.doc', becomes 'cod.pdf'), trimmed, cut at
 * `max`, lone surrogates as U+FFFD. Applied when an upload is received (with FILE_NAME_MAX) and,
 * through the `file_name` columns (src/server/db/schema.ts), whenever a stored name is written or
 * read, so names kept before the rule are shown clean too.
 * @param name the name as sent or stored
 * @param max the most characters kept (all when absent)
 * @returns the clean name ('' when nothing is left)
 */
export function cleanFileName(name: string, max?: number): string {
  const clean = name.replace(FILE_NAME_DROPPED, '').trim();
  return (max === undefined ? clean : clean.slice(0, max)).replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/** docs/requirements/validation.md: a rejected file's message. */
export const notAllowedMessage = (fileName: string) => `${fileName} is not allowed.`;
/** docs/requirements/validation.md: more than one file dropped. */
export const ONE_AT_A_TIME = 'One at a time please!';

/**
 * The last extension of a file name, lower case and without the dot, after percent-decoding and
 * trimming the dots and spaces Windows ignores ('x.jpg.exe' → 'exe', 'A.JPG ' → 'jpg', 'README' → '').
 */
export function lastExtension(fileName: string): string {
  let name = fileName;
  try {
    name = decodeURIComponent(fileName);
  } catch {
    // A lone '%' is kept as typed.
  }
  name =
    name
      .replace(/[\s.]+$/u, '')
      .split(/[\\/]/)
      .pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * Whether an uploader takes a file by its name (docs/requirements/validation.md).
 * @param allowed lower-case extensions; empty means any type except the forbidden ones
 * @returns null when accepted, otherwise the message '{file} is not allowed.'
 */
export function checkFileName(fileName: string, allowed: readonly string[]): string | null {
  const ext = lastExtension(fileName);
  if (FORBIDDEN_EXTENSIONS.includes(ext)) return notAllowedMessage(fileName);
  if (allowed.length > 0 && !allowed.includes(ext)) return notAllowedMessage(fileName);
  return null;
}
