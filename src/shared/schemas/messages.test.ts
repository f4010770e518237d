import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toFieldErrors } from '../field-errors.ts';

// Every schema module of src/shared/schemas: the payloads forms, routes and services share.
const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

/** Inputs a careless or hostile client sends: empty, wrong types, junk text, objects in place of text. */
function junkInputs(schema: z.ZodType): unknown[] {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : null;
  const fill = (value: unknown) => (shape ? Object.fromEntries(Object.keys(shape).map((k) => [k, value])) : value);
  return [{}, 'text', 42, null, [], fill({ a: 1 }), fill('zz%%'), fill(-1), fill(''), fill(['x', 'y'])];
}

const schemas = Object.entries(modules).flatMap(([file, mod]) =>
  Object.entries(mod)
    .filter(([, v]) => v instanceof z.ZodType)
    .map(([name, schema]) => ({ file, name, schema: schema as z.ZodType })),
);

describe('messages a client reads (docs/accessibility.md, "Messages")', () => {
  it('finds the shared schemas', () => {
    expect(schemas.length).toBeGreaterThan(60);
  });

  it.each(schemas.map((s) => [`${s.file} ${s.name}`, s.schema] as const))(
    '%s names fields in words, never keys or types',
    (_, schema) => {
      for (const input of junkInputs(schema)) {
        const result = schema.safeParse(input);
        if (result.success) continue;
        for (const [key, messages] of Object.entries(toFieldErrors(result.error))) {
          for (const message of messages) {
            expect(message, `${key}: ${message}`).not.toMatch(
              /\b(Invalid input|Invalid option|NaN|undefined)\b|\bexpected\b.*\breceived\b/,
            );
            // A key such as mailing_zip or account_id, as typed in code, is not a word a person reads;
            // the values a sort accepts are listed as the client must send them.
            expect(message.replace(/one of: .*$/, ''), `${key}: ${message}`).not.toMatch(
              /\b[a-z]+_[a-z_]+\b|g-recaptcha/,
            );
            expect(message, `${key}: ${message}`).toMatch(/^[A-Z0-9]/);
          }
        }
      }
    },
  );
});
