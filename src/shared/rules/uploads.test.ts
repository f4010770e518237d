import { describe, expect, it } from 'vitest';
import { ALLOWED_EXTENSIONS, checkFileName, lastExtension } from './uploads.ts';

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
