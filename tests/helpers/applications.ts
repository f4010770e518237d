import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { levels } from '../../src/server/db/schema.ts';
import { Agent, type TestApp } from './test-app.ts';

/** The id of the level with `slug` ('start-up', 'maintain', …). */
export async function levelId(t: TestApp, slug: string): Promise<number> {
  const [row] = await t.database.db.select({ id: levels.id }).from(levels).where(eq(levels.slug, slug));
  return row.id;
}

/**
 * A visitor who starts an application of `levelId` with `email` (POST /application/start, 201),
 * signed in with the CSRF token it answers. @returns the agent and the application's mailed token
 */
export async function startApplicant(t: TestApp, levelId: number, email: string): Promise<{ a: Agent; token: string }> {
  const a = await new Agent(t.app).start();
  const res = await a.post('/application/start', { email, password: 'Booster-club-2026', level_id: levelId });
  expect(res.statusCode).toBe(201);
  a.csrfToken = res.json().csrfToken;
  return { a, token: res.json().token as string };
}

/** GET /api/applications/{token}: the wizard as its owner sees it. */
export const getWizard = async (a: Agent, token: string) => (await a.get(`/api/applications/${token}`)).json();
