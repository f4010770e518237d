import { useState } from 'react';
import { toastFailure } from './feedback.tsx';
import { HttpFailure } from './http.ts';

/** What useFileUpload gives a card: the chosen file, whether a request runs, the field's error, and the actions. */
export interface FileUpload<T> {
  /** The file chosen, or null. */
  file: File | null;
  /** Chooses a file (or none), clearing the error shown. */
  choose: (file: File | null) => void;
  /** True while the upload or another `busyWhile` task runs: the card disables its controls. */
  busy: boolean;
  /** The message under the file field: the server's `errors.file`, or its refusal with `showRefusal`. */
  error: string | undefined;
  /** Sends the chosen file as multipart field `file`; the answer, or undefined when nothing was sent or it failed. */
  upload: () => Promise<T | undefined>;
  /** Runs another request of the card (e.g. "Clear image") with `busy` set; a failure is toasted. */
  busyWhile: (task: () => Promise<void>) => Promise<void>;
}

/**
 * The state of a one-file upload card (docs/requirements/platform.md §5.7 uploads): the profile
 * header image (docs/requirements/product.md tool 12) and the IRS determination letter on the
 * group's home (docs/wizard.md "A group waiting for its IRS letter") share it.
 * @param send posts the multipart body and returns the server's answer
 * @param opts.onDone called with the answer after a successful upload, once the file is cleared
 * @param opts.showRefusal also show a refusal that is not a field error (e.g. 409, 413) under the field
 * A failed upload toasts "That didn't work." and shows the field's message.
 */
export function useFileUpload<T>(
  send: (body: FormData) => Promise<T>,
  opts: { onDone?: (answer: T) => void | Promise<void>; showRefusal?: boolean } = {},
): FileUpload<T> {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const upload = async () => {
    if (!file) return undefined;
    setBusy(true);
    setError(undefined);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const answer = await send(body);
      setFile(null);
      await opts.onDone?.(answer);
      return answer;
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : null;
      setError(
        failure?.errors.file?.[0] ??
          (opts.showRefusal && failure && failure.status !== 422 ? failure.message : undefined),
      );
      toastFailure();
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  const busyWhile = async (task: () => Promise<void>) => {
    setBusy(true);
    try {
      await task();
    } catch {
      toastFailure();
    } finally {
      setBusy(false);
    }
  };
  return {
    file,
    choose: (f) => {
      setFile(f);
      setError(undefined);
    },
    busy,
    error,
    upload,
    busyWhile,
  };
}
