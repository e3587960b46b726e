import { deadlineSignal, TimeoutError, withTimeout } from '@research/core';
import { fakeTimeoutsOnly } from '../support/fake-timers';

describe('withTimeout', () => {
  it('settles with the promise when it wins', async () => {
    await expect(withTimeout(Promise.resolve(7), 1000, 'answer')).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('boom')), 1000, 'answer')).rejects.toThrow('boom');
  });

  it('rejects with a TimeoutError naming the work once the time is up', async () => {
    const never = new Promise<never>(() => undefined);
    const started = Date.now();
    const error = await withTimeout(never, 50, 'closing the pool').catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'closing the pool timed out after 50 ms' });
  });

  it('leaves no unhandled rejection behind when the losing promise fails later', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 30));
      await expect(withTimeout(late, 5, 'late work')).rejects.toBeInstanceOf(TimeoutError);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('clears its timer when the promise wins, so nothing is left pending', async () => {
    jest.useFakeTimers();
    try {
      await expect(withTimeout(Promise.resolve('done'), 60_000, 'quick work')).resolves.toBe('done');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('deadlineSignal', () => {
  afterEach(() => jest.useRealTimers());

  it('aborts at its time on the process timers and not before, and never once cleared', () => {
    fakeTimeoutsOnly();
    const deadline = deadlineSignal(300);
    jest.advanceTimersByTime(299);
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);

    const cleared = deadlineSignal(300);
    cleared.clear();
    jest.advanceTimersByTime(1000);
    expect(cleared.signal.aborted).toBe(false);
  });
});
