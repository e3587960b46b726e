import { worstEventLoopBlock } from './event-loop';

/** Holds the main thread until it has used `ms` of CPU time (however long a crowded machine makes that). */
function spin(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
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
