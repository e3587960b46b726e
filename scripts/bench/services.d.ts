// Types of services.js for the TypeScript scripts that share it (scripts/eval).
import type { ChildProcess } from 'node:child_process';
import type { QueryResult } from 'pg';

export const ADMIN_URL: string;
export const REDIS_URL: string;
export function sql(url: string, text: string, params?: unknown[]): Promise<QueryResult>;
export function createBenchDatabase(label: string): Promise<{ url: string; drop(): Promise<QueryResult> }>;
export function benchRedisPrefix(): string;
export function serveScript(
  script: string,
  env: Record<string, string>,
  options?: { stdout?: 'ignore' | 'inherit' },
): Promise<{ child: ChildProcess; port: number; origin: string }>;
export function stopChild(child: ChildProcess): Promise<void>;
