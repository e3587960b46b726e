// Types of harness.js for the TypeScript scripts that share it (scripts/eval).
export const RESULT_PREFIX: string;

export interface Bench {
  readonly name: string;
  readonly smoke: boolean;
  size<T>(full: T, smoke: T): T;
  figure(key: string, value: number): void;
  target(ok: boolean, text: string): void;
  dataDir(needs: string[]): string;
  run(main: () => Promise<void> | void): void;
}

export function createBench(name: string, options: { figures: string[] }): Bench;
