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
});
