import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShutdownBudget } from './shutdown-budget.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('ShutdownBudget', () => {
  it('gives the whole wait before the close begins, then what is left of it, never less than 0', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T23:00:00Z') });
    const budget = new ShutdownBudget(8_000);
    expect(budget.remainingMs()).toBe(8_000);
    budget.begin();
    vi.advanceTimersByTime(3_000);
    expect(budget.remainingMs()).toBe(5_000);
    // A second begin keeps the first deadline: the jobs and the requests share one wait.
    budget.begin();
    vi.advanceTimersByTime(6_000);
    expect(budget.remainingMs()).toBe(0);
  });
});
