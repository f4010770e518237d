import type { FieldErrors } from '../shared/validation.ts';

/** A 422 answer: `{ message, errors }` with one or more messages per field (docs/requirements/platform.md §3). */
export class ValidationError extends Error {
  readonly statusCode = 422;
  /** For multi-page forms: the first page (1-based) with an error, sent along in the body. */
  page?: number;
  readonly errors: FieldErrors;
  constructor(errors: FieldErrors, message?: string) {
    super(message ?? Object.values(errors)[0]?.[0] ?? 'The given data was invalid.');
    this.errors = errors;
  }
  /** One field, one message. */
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** An error whose message is safe to show to the user, with its HTTP status (401, 403, 404, 409 ...). */
export class HttpError extends Error {
  readonly statusCode: number;
  /** Further fields sent beside `message` (e.g. `staff_notified`), safe to show. */
  readonly extra: Record<string, unknown>;
  constructor(statusCode: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.extra = extra;
  }
}

/**
 * A 429 past one of the product's limits (docs/security.md "Limits on mail and payments"): the
 * message says when to try again; the answer carries `Retry-After` and `retry_after_seconds`.
 */
export class TooManyRequests extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { retry_after_seconds: retryAfterSeconds });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const notFound = (what = 'The page') => new HttpError(404, `${what} could not be found.`);
export const forbidden = () => new HttpError(403, 'You are not allowed to do that.');
export const unauthenticated = () => new HttpError(401, 'Please sign in first.');
