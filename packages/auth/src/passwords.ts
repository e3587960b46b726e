import argon2 from 'argon2';
import { Semaphore } from '@research/core';

// OWASP's argon2id recommendation: m = 19 MiB, t = 2, p = 1.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and verifies deletion-protection passwords with argon2id, never more than `concurrency` at once. */
export class PasswordHasher {
  private readonly gate: Semaphore;

  constructor(concurrency: number) {
    // Each argon2 call holds 19 MiB: bounding them bounds memory under a burst of deletions.
    this.gate = new Semaphore(Math.max(1, concurrency));
  }

  hash(password: string): Promise<string> {
    return this.gate.run(() => argon2.hash(password, ARGON2_OPTIONS));
  }

  /** False for a wrong password, a missing one, or an unreadable stored hash. */
  async verify(storedHash: string, password: string | null | undefined): Promise<boolean> {
    if (typeof password !== 'string') return false;
    return this.gate.run(async () => {
      try {
        return await argon2.verify(storedHash, password);
      } catch {
        return false;
      }
    });
  }
}
