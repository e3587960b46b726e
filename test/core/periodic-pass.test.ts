import { startPeriodicPass } from '@research/core';
import { fakeTimeoutsOnly } from '../support/fake-timers';

/** A pass that waits until the test lets it end, counting its starts. */
function gatedPass() {
  const state = { starts: 0, release: () => undefined as void, stoppingSeen: [] as boolean[] };
  const pass = (stopping: () => boolean) => {
    state.starts++;
    return new Promise<number>((resolve) => {
      state.release = () => {
        state.stoppingSeen.push(stopping());
        resolve(state.starts);
      };
    });
  };
  return { state, pass };
}

describe('startPeriodicPass', () => {
  beforeEach(() => fakeTimeoutsOnly());
  afterEach(() => jest.useRealTimers());

  it('runs a pass at each interval, never two at a time: a tick during a pass joins it', async () => {
    const { state, pass } = gatedPass();
    const timer = startPeriodicPass(pass, { intervalMs: 1000 });
    expect(state.starts).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(state.starts).toBe(1);
    const joined = timer.runOnce();
    jest.advanceTimersByTime(3000);
    expect(state.starts).toBe(1);
    state.release();
    await expect(joined).resolves.toBe(1);
    jest.advanceTimersByTime(1000);
    expect(state.starts).toBe(2);
    state.release();
    await timer.stop();
  });

  it('starts at once with immediate, and after stop() runs no more and waits for the pass in flight', async () => {
    const { state, pass } = gatedPass();
    const timer = startPeriodicPass(pass, { intervalMs: 1000, immediate: true });
    expect(state.starts).toBe(1);
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    state.release();
    await stopping;
    expect(state.stoppingSeen).toEqual([true]);
    jest.advanceTimersByTime(5000);
    expect(state.starts).toBe(1);
  });
});
