/** Verifies a captcha response token from the browser (docs/requirements/calls.md "invisible captcha"). */
export interface CaptchaVerifier {
  readonly isEnabled: boolean;
  /**
   * @param token the `g-recaptcha-response` value sent by the form
   * @param remoteIp the visitor's address, passed on to the verifier
   * @returns true only when the verifier positively accepted the token; any error is false (fail closed)
   */
  verify(token: string | undefined, remoteIp: string): Promise<boolean>;
}

/** Local default: captcha off, every submission passes. */
export const captchaOff: CaptchaVerifier = { isEnabled: false, verify: async () => true };

export interface RecaptchaOptions {
  secret: string;
  /** siteverify endpoint; a local fake in tests. */
  verifyUrl: string;
  /** v3 score needed to pass; v2 answers carry no score and pass on success. */
  minScore: number;
  timeoutMs?: number;
}

/**
 * Google reCAPTCHA (v2 invisible or v3) through its siteverify API: a form-encoded POST of secret,
 * response and remoteip answering `{ success, score? }`. Network errors, timeouts, non-200 answers
 * and unreadable bodies all count as a failed check.
 */
export function recaptchaVerifier(opts: RecaptchaOptions): CaptchaVerifier {
  return {
    isEnabled: true,
    async verify(token, remoteIp) {
      if (!token) return false;
      try {
        const res = await fetch(opts.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: opts.secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
        });
        if (!res.ok) return false;
        const body = (await res.json()) as { success?: unknown; score?: unknown };
        if (body.success !== true) return false;
        return typeof body.score === 'number' ? body.score >= opts.minScore : true;
      } catch {
        return false;
      }
    },
  };
}
