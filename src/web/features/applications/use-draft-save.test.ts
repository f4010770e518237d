// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_SAVE_DELAY_MS } from './api.ts';
import { useDraftSave } from './use-draft-save.ts';

/**
 * Draft save as the user types (docs/wizard.md "Saving as you type"), against a fetch the test
 * answers by hand; the real route is driven in tests/integration/wizard-draft.test.ts and the
 * page in tests/e2e/joining.test.ts.
 */

interface Call {
  method: string;
  url: string;
  body: Record<string, unknown>;
  keepalive: boolean;
  respond(status: number, body?: unknown): void;
}
let calls: Call[];

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
  document.head.innerHTML = '<meta name="csrf-token" content="page-token">';
  vi.stubGlobal(
    'fetch',
    (url: string, init: RequestInit) =>
      new Promise<Response>((resolve) => {
        calls.push({
          method: String(init.method),
          url,
          body: JSON.parse(String(init.body)),
          keepalive: !!init.keepalive,
          respond: (status, body = { page: 1, saved: [], saved_at: '' }) =>
            resolve(new Response(JSON.stringify(body), { status })),
        });
      }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const respond = (call: Call, status: number, body?: unknown) => act(async () => call.respond(status, body));

function mount(initial: Record<string, unknown>, onRefused = vi.fn()) {
  const hook = renderHook(
    ({ payload, page, enabled }) => useDraftSave({ token: 'T', page, payload, enabled, onRefused }),
    {
      initialProps: { payload: initial, page: 1, enabled: true },
    },
  );
  return { ...hook, onRefused };
}

describe('useDraftSave', () => {
  it('sends nothing for the answers the page opened with, then one PATCH after typing pauses, with the last answers', async () => {
    const { result, rerender } = mount({ account___name: '' });
    await wait(2000);
    expect(calls).toHaveLength(0);
    expect(result.current.status).toBe('idle');
    rerender({ payload: { account___name: 'Sold' }, page: 1, enabled: true });
    await wait(DRAFT_SAVE_DELAY_MS - 300);
    rerender({ payload: { account___name: 'Soldotna' }, page: 1, enabled: true });
    await wait(DRAFT_SAVE_DELAY_MS - 1);
    expect(calls).toHaveLength(0);
    await wait(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      url: '/application/create/T',
      body: { page: 1, account___name: 'Soldotna' },
    });
    expect(result.current.status).toBe('saving');
    await respond(calls[0]!, 200);
    expect(result.current.status).toBe('saved');
  });

  it('a failed save says so, and retry sends the same answers again', async () => {
    const { result, rerender, onRefused } = mount({ account___name: '' });
    rerender({ payload: { account___name: 'Soldotna' }, page: 1, enabled: true });
    await wait(DRAFT_SAVE_DELAY_MS);
    await respond(calls[0]!, 500, { message: 'Server Error' });
    expect(result.current.status).toBe('failed');
    expect(onRefused).not.toHaveBeenCalled();
    await act(async () => {
      void result.current.flush();
    });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body).toEqual({ page: 1, account___name: 'Soldotna' });
    await respond(calls[1]!, 200);
    expect(result.current.status).toBe('saved');
  });

  it('a submitted application (409) is reported so the form can stop', async () => {
    const { rerender, onRefused } = mount({ account___name: '' });
    rerender({ payload: { account___name: 'Soldotna' }, page: 1, enabled: true });
    await wait(DRAFT_SAVE_DELAY_MS);
    await respond(calls[0]!, 409, { message: 'This application has already been submitted.' });
    expect(onRefused).toHaveBeenCalledWith(expect.objectContaining({ status: 409 }));
  });

  it('leaving the page sends at once with keepalive; disabled (busy, locked) sends nothing', async () => {
    const { rerender } = mount({ account___name: '' });
    rerender({ payload: { account___name: 'Soldotna' }, page: 1, enabled: true });
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.keepalive).toBe(true);
    await respond(calls[0]!, 200);
    rerender({ payload: { account___name: 'Soldotna Track' }, page: 1, enabled: false });
    await wait(DRAFT_SAVE_DELAY_MS * 2);
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(calls).toHaveLength(1);
  });

  it('saves run one after the other: a second save waits for the first to answer', async () => {
    const { result, rerender } = mount({ account___name: '' });
    rerender({ payload: { account___name: 'Sold' }, page: 1, enabled: true });
    await act(async () => {
      void result.current.flush();
    });
    rerender({ payload: { account___name: 'Soldotna' }, page: 1, enabled: true });
    let done = false;
    await act(async () => {
      void result.current.flush().then(() => {
        done = true;
      });
    });
    expect(calls).toHaveLength(1);
    await respond(calls[0]!, 200);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body.account___name).toBe('Soldotna');
    expect(done).toBe(false);
    await respond(calls[1]!, 200);
    expect(done).toBe(true);
    expect(result.current.status).toBe('saved');
  });
});
