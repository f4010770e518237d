import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { applicationWizardContracts } from '../../../shared/contracts/application-wizard.ts';
import { call, HttpFailure } from '../../lib/http.ts';
import { DRAFT_SAVE_DELAY_MS } from './api.ts';

/** idle: nothing typed yet; then saving, saved, or failed (the status line offers a retry). */
type DraftStatus = 'idle' | 'saving' | 'saved' | 'failed';

/** Marks a page whose last draft save failed: any payload differs from it, so the next flush sends. */
const UNSAVED = '\u0000unsaved';

export interface DraftSave {
  status: DraftStatus;
  /**
   * Saves the current page's answers now if they changed since the last save; resolves when this
   * save and every earlier one have finished (never rejects). `keepalive` lets the request outlive
   * the page (pagehide), so it is sent at once rather than after the earlier ones.
   */
  flush(keepalive?: boolean): Promise<void>;
  /** Records that the server holds these answers for the page (after Next saved it). */
  markSaved(page: number, payload: Record<string, unknown>): void;
}

/**
 * Draft save as the user types (docs/wizard.md "Saving as you type"): ~800 ms after the last
 * change, and at once when a field loses focus, the tab is hidden or the page is left, the shown
 * answers of the current page go to PATCH /application/create/`token` — unchecked, without showing errors or moving on.
 * Saves run one after the other, so an older answer never lands after a newer one.
 * @param payload the page's answers as Next would send them (payloadOf)
 * @param enabled false while locked, broken or busy with Next/Submit/Delete/Switch
 * @param onRefused a 404 or 409 (deleted, submitted elsewhere): the draft can no longer be saved
 */
export function useDraftSave(opts: {
  /** The application's token (or, from the account's list, its id). */
  token: string;
  page: number;
  payload: Record<string, unknown>;
  enabled: boolean;
  onRefused(failure: HttpFailure): void;
}): DraftSave {
  const { page, enabled } = opts;
  const key = JSON.stringify(opts.payload);
  const latest = useRef({ ...opts, key });
  // What the server holds per page: a page first shown holds what the server sent.
  const saved = useRef(new Map<number, string>());
  // After each render and before the effects below (and any handler) read them.
  useLayoutEffect(() => {
    latest.current = { ...opts, key };
    if (!saved.current.has(page)) saved.current.set(page, key);
  });
  const chain = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  const [status, setStatus] = useState<DraftStatus>('idle');

  const flush = useCallback((keepalive = false): Promise<void> => {
    window.clearTimeout(timer.current);
    const { token, page: p, payload, enabled: on, key: body, onRefused } = latest.current;
    if (!on || saved.current.get(p) === body) return chain.current;
    saved.current.set(p, body);
    pending.current += 1;
    setStatus('saving');
    const send = async () => {
      try {
        await call(
          applicationWizardContracts.saveDraft,
          { params: { token }, body: { page: p, ...payload } },
          { keepalive },
        );
        pending.current -= 1;
        if (pending.current === 0) setStatus((s) => (s === 'failed' ? s : 'saved'));
      } catch (err) {
        pending.current -= 1;
        if (saved.current.get(p) === body) saved.current.set(p, UNSAVED);
        setStatus('failed');
        const failure = err instanceof HttpFailure ? err : new HttpFailure(0, String(err));
        if (failure.status === 404 || failure.status === 409) onRefused(failure);
      }
    };
    if (keepalive) {
      void send();
      return chain.current;
    }
    chain.current = chain.current.then(send);
    return chain.current;
  }, []);

  const markSaved = useCallback((p: number, payload: Record<string, unknown>) => {
    saved.current.set(p, JSON.stringify(payload));
  }, []);

  // Typing: save once it pauses.
  useEffect(() => {
    if (!enabled || saved.current.get(page) === key) return;
    timer.current = window.setTimeout(() => void flush(), DRAFT_SAVE_DELAY_MS);
    return () => window.clearTimeout(timer.current);
  }, [key, page, enabled, flush]);

  // Leaving: the tab is hidden (switching apps on a phone, closing) or the page unloads.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void flush(true);
    };
    const onPageHide = () => void flush(true);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [flush]);

  return { status, flush, markSaved };
}
