import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Piscina } from 'piscina';
import { CrawlError } from './crawl-error';
import { MAX_PDF_MS } from '@research/core';
import {
  isThreadLoaded,
  type ExtractedDocument,
  type ExtractionOutcome,
  type ExtractionTask,
} from './extract/document';

/** How long closing the pool waits for a starting thread to finish loading before stopping it anyway. */
const THREAD_LOAD_WAIT_MS = 30_000;

/** Runs extractions: in a worker-thread pool (the service) or on the calling thread (benchmark baseline). */
export interface ExtractionPool {
  readonly mode: 'pool' | 'main';
  readonly threads: number;
  extract(task: ExtractionTask, signal?: AbortSignal): Promise<ExtractedDocument>;
  close(): Promise<void>;
}

export interface ExtractionPoolOptions {
  /** `pool` (default) parses off the event loop; `main` parses on it, for the benchmark's comparison. */
  mode?: 'pool' | 'main';
  /** Pool threads; default: the cores the process may use. */
  threads?: number;
  /** An extraction that takes longer is abandoned (its thread replaced); a PDF's at most MAX_PDF_MS. */
  taskTimeoutMs?: number;
}

/**
 * The compiled worker script. Under jest the sources run as TypeScript, which a worker thread cannot
 * load, so the compiled file in dist/ is used (`npm test` builds first).
 */
export function extractionWorkerFile(): string {
  const beside = path.join(__dirname, 'extract', 'extraction-worker.js');
  const candidates = __filename.endsWith('.ts')
    ? [path.resolve(__dirname, '..', 'dist', 'extract', 'extraction-worker.js')]
    : [beside];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`The extraction worker is not built (${candidates[0]}); run npm run build.`);
  return found;
}

/** Builds the extraction pool. Readability on jsdom is CPU-heavy: the pool keeps the event loop free. */
export function createExtractionPool(options: ExtractionPoolOptions = {}): ExtractionPool {
  const taskTimeoutMs = options.taskTimeoutMs ?? 60_000;
  if (options.mode === 'main') {
    // Loaded lazily so a pool-mode process never loads jsdom on its main thread.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { extractDocument } = require('./extract/extract-document') as typeof import('./extract/extract-document');
    return {
      mode: 'main',
      threads: 1,
      extract: (task) => extractDocument(task),
      close: async () => undefined,
    };
  }
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const pool = new Piscina({
    filename: extractionWorkerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // A hostile page must not take the process's memory with it: the thread dies, the task fails.
    // A page's DOM lives for the whole extraction: a young generation large enough to hold it lets it die
    // young instead of being promoted and marked. bench:crawl: 256 MiB gives ~12 % more pages per second
    // than 128 MiB (512 MiB no more, 1 GiB less).
    resourceLimits: { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 256 },
  });
  const loaded = new Set<number>();
  pool.on('message', (message: unknown) => {
    if (isThreadLoaded(message)) loaded.add(message.extractionThreadLoaded);
  });
  return {
    mode: 'pool',
    threads,
    async extract(task, signal) {
      const timeout = AbortSignal.timeout(task.kind === 'pdf' ? Math.min(taskTimeoutMs, MAX_PDF_MS) : taskTimeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      // The body's memory moves to the thread instead of being copied.
      const body =
        task.body.byteOffset === 0 && task.body.byteLength === task.body.buffer.byteLength
          ? task.body
          : task.body.slice();
      let outcome: ExtractionOutcome;
      try {
        outcome = (await pool.run(
          { ...task, body },
          { signal: combined, transferList: [body.buffer as ArrayBuffer] },
        )) as ExtractionOutcome;
      } catch {
        if (timeout.aborted) throw new CrawlError('timeout', 'Extraction took too long.');
        if (signal?.aborted) throw new CrawlError('aborted', 'The extraction was cancelled.');
        throw new CrawlError('extraction', 'The page could not be read.');
      }
      if ('refused' in outcome) throw new CrawlError(outcome.refused.reason, outcome.refused.message);
      return outcome.document;
    },
    async close() {
      // A thread stopped while it loads its modules takes the process down (see ThreadLoaded).
      const deadline = Date.now() + THREAD_LOAD_WAIT_MS;
      const loading = () => pool.threads.some((thread) => thread.threadId >= 0 && !loaded.has(thread.threadId));
      while (loading() && Date.now() < deadline) await delay(20);
      await pool.destroy();
    },
  };
}
