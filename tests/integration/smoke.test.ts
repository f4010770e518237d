import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inquiryContracts } from '../../src/shared/contracts/public-forms.ts';
import { Agent, createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('contact form', () => {
  it('stores a valid message and answers 201', async () => {
    const a = await new Agent(t.app).start();
    const res = await a.call(inquiryContracts.contact, {
      body: {
        name: 'Ann',
        email: 'ann@example.com',
        subject: 'Membership',
        message: 'Hello',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe("Your message has been received. We'll get back with you shortly.");
  });
});
