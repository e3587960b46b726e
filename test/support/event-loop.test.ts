import { mainThreadCpuMs, worstEventLoopBlock } from './event-loop';

/**
 * Holds the main thread until it has used `ms` of CPU time (however long a crowded machine makes that), by the
 * clock worstEventLoopBlock reads: the process's CPU time also counts its helper threads, and under load a spin
 * by that clock held the main thread for 194 ms of a 400 ms "spin".
 */
function spin(ms: number): void {
  const start = mainThreadCpuMs();
  while (mainThreadCpuMs() - start < ms);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worstEventLoopBlock', () => {
  it('reports a synchronous stretch of work as long as it held the loop', async () => {
    const { worstMs } = await worstEventLoopBlock(async () => {
      await wait(20);
      spin(400);
      await wait(20);
    });
    expect(worstMs).toBeGreaterThan(300);
  });

  it('does not count the time the loop spent waiting', async () => {
    const { worstMs } = await worstEventLoopBlock(() => wait(400));
    expect(worstMs).toBeLessThan(100);
  });
});
