import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has defaults that run the product locally', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.captcha.secret).toBeUndefined();
    expect(c.cookieSecure).toBe(false);
    expect(c.seedDemo).toBe(true);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/DATABASE_URL must start with postgres:\/\//);
    }
  });

  it('requires the captcha secret with the site key, and turns on secure cookies for https in production', () => {
    expect(() => loadConfig({ RECAPTCHA_SITE_KEY: 'k' })).toThrow(/RECAPTCHA_SECRET/);
    const c = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://goodstanding.example/' });
    expect(c.cookieSecure).toBe(true);
    expect(c.publicUrl).toBe('https://goodstanding.example');
  });

  it('offers the online document viewer only when the public address is reachable from the internet', () => {
    const viewer = 'https://view.officeapps.live.com/op/view.aspx';
    expect(loadConfig({ PUBLIC_URL: 'https://goodstanding.example' }).bylaws.viewerUrl).toBe(viewer);
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://192.168.1.20', 'http://10.0.0.5', 'http://172.20.0.2', 'http://app.local', 'http://[::1]:3000']) {
      expect(loadConfig({ PUBLIC_URL: url }).bylaws.viewerUrl, url).toBeNull();
    }
    expect(loadConfig({}).bylaws.viewerUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://fcbooster.example' }).bylaws.viewerUrl).toBe(viewer);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000', PUBLIC_SITE_REACHABLE: '1' }).bylaws.viewerUrl).toBe(viewer);
    expect(loadConfig({ PUBLIC_URL: 'https://goodstanding.example', PUBLIC_SITE_REACHABLE: '0' }).bylaws.viewerUrl).toBeNull();
    expect(loadConfig({ BYLAWS_SHORT_BRAND: 'ClubBasics' }).bylaws.shortBrand).toBe('ClubBasics');
  });
});
