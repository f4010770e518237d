import { z } from 'zod';

/** The answer of a refused payload (docs/requirements/platform.md §3): a message and each field's messages. */
export const validationFailedSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});

/** A path's record id as it arrives; the route answers 404 for one that is not a positive integer (recordIdOf). */
export const recordIdParams = z.object({ id: z.string() });

/**
 * A moment in an answer: the server hands a Date, the wire carries ISO 8601 (UTC, with its offset),
 * which is what a client reads (`ContractAnswer` is the answer as it arrives).
 */
export const timestampSchema = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (iso) => new Date(iso),
  encode: (date) => date.toISOString(),
});

/**
 * The answer of a route that sends a file or a page instead of JSON (a CSV export, a PDF, a Word
 * document, a stored upload, an HTML page): the handler sends the bytes with their content type, so
 * nothing is serialized or checked; the contract names the media types in `produces`, which the API
 * document shows. A client does not `call` such a route: it links to it or downloads it.
 * @param description what the file is, for the API document ("The accounts as CSV")
 */
export const fileAnswer = (description: string) => z.custom<unknown>(() => true).describe(description);

/**
 * The `account_id` staff send to act for an account (the query of a GET, the body otherwise). The
 * access check reads and judges it before the request is parsed (docs/ARCHITECTURE.md "Requests");
 * for anyone else it is ignored, so the contract takes it as it comes and hands the route nothing.
 */
export const actingAccountField = z
  .unknown()
  .optional()
  .transform(() => undefined)
  .describe("Staff: the account to act for (the access check reads it; ignored for the account's own users).");
