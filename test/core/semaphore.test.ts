import { Semaphore } from '@research/core';

describe('Semaphore', () => {
  it('never lets more than its limit run at once, even as holders hand over', async () => {
    const gate = new Semaphore(3);
    let active = 0;
    let peak = 0;
    const task = async (ms: number) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, ms));
      active--;
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => gate.run(() => task(i % 4))));
    expect(peak).toBe(3);
    expect(active).toBe(0);
  });

  it('releases its slot when a task throws', async () => {
    const gate = new Semaphore(1);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 7)).resolves.toBe(7);
  });
});
