import { describe, expect, it } from 'vitest';
import { ALLOWED_EXTENSIONS, checkFileName, cleanFileName, FILE_NAME_MAX, lastExtension } from './uploads.ts';

describe('upload names (docs/requirements/validation.md "Uploads")', () => {
  it('reads the last extension, lower case, after decoding', () => {
    expect(lastExtension('photo.JPG')).toBe('jpg');
    expect(lastExtension('x.jpg.exe')).toBe('exe');
    expect(lastExtension('trailing.exe. . ')).toBe('exe');
    expect(lastExtension('evil%2Eexe')).toBe('exe');
    expect(lastExtension('C:\\Users\\me\\letter.pdf')).toBe('pdf');
    expect(lastExtension('README')).toBe('');
    expect(lastExtension('.bashrc')).toBe('');
    expect(lastExtension('100%.png')).toBe('png');
  });

  it('refuses the forbidden list for every uploader, the generic one included', () => {
    for (const name of [
      'a.exe',
      'A.BAT',
      'b.msi',
      'c.js',
      'd.vbs',
      'e.ps1',
      'f.lnk',
      'g.reg',
      'h.jar',
      'i.cmd',
      'pic.jpg.exe',
    ]) {
      expect(checkFileName(name, ALLOWED_EXTENSIONS.any)).toBe(`${name} is not allowed.`);
      expect(checkFileName(name, ALLOWED_EXTENSIONS.contest_photo)).toBe(`${name} is not allowed.`);
    }
    expect(checkFileName('roster.csv', ALLOWED_EXTENSIONS.any)).toBeNull();
  });

  it('holds each uploader to its allowlist, case-insensitively', () => {
    expect(checkFileName('Team.PNG', ALLOWED_EXTENSIONS.contest_photo)).toBeNull();
    expect(checkFileName('logo.svg', ALLOWED_EXTENSIONS.contest_photo)).toBeNull();
    expect(checkFileName('clip.mp4', ALLOWED_EXTENSIONS.contest_photo)).toBe('clip.mp4 is not allowed.');
    expect(checkFileName('clip.MOV', ALLOWED_EXTENSIONS.contest_video)).toBeNull();
    expect(checkFileName('header.webp', ALLOWED_EXTENSIONS.profile_image)).toBe('header.webp is not allowed.');
    expect(checkFileName('no-extension', ALLOWED_EXTENSIONS.profile_image)).toBe('no-extension is not allowed.');
  });
});

describe('file names as kept and shown (docs/security.md "Control characters in text")', () => {
  it("drops the override that makes '\\u202Ecod.pdf' read 'fdp.doc'", () => {
    expect(cleanFileName('\u202Ecod.pdf')).toBe('cod.pdf');
    expect(checkFileName(cleanFileName('\u202Ecod.pdf'), ALLOWED_EXTENSIONS.application_document)).toBeNull();
  });

  it('drops C0 and C1 controls, every bidirectional control and the direction marks', () => {
    expect(cleanFileName('a\u0000b\tc\r\nd\u007Fe\u0085f\u009Fg.pdf')).toBe('abcdefg.pdf');
    expect(cleanFileName('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069x.pdf')).toBe('x.pdf');
    expect(cleanFileName('\u200Ex\u200F\u061C.pdf\u2028\u2029')).toBe('x.pdf');
  });

  it('keeps every other character, trims, and cuts at the limit given without splitting a pair', () => {
    expect(cleanFileName('  Zoë’s 🎉 letter (1).pdf ')).toBe('Zoë’s 🎉 letter (1).pdf');
    expect(cleanFileName('x'.repeat(300), FILE_NAME_MAX)).toHaveLength(255);
    expect(cleanFileName(`${'x'.repeat(254)}🎉`, FILE_NAME_MAX)).toBe(`${'x'.repeat(254)}\uFFFD`);
    expect(cleanFileName('a\uD800b')).toBe('a\uFFFDb');
  });
});
