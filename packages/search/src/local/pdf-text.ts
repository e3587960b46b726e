import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MAX_PDF_MS } from '@research/core';

export interface PdfText {
  title: string | null;
  text: string;
  pages: number;
}

// Runs in a worker thread as plain CommonJS. unpdf bundles a serverless PDF.js (no downloads, no native
// code); its CommonJS entry loads that bundle with import(), which a real Node thread supports.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// PDF.js reports font and structure warnings on the console; they must not mix into the JSON logs.
for (const level of ['log', 'info', 'warn', 'error', 'debug']) console[level] = () => {};
const unpdf = require(workerData.unpdfPath);
const { pdfOverLimits, pdfPagesText } = require(workerData.corePath);

parentPort.on('message', async (job) => {
  let pdf;
  try {
    // A PDF whose streams inflate past the limit (a zip bomb) is refused before PDF.js holds it.
    const refusal = pdfOverLimits(new Uint8Array(job.bytes));
    if (refusal) throw new Error(refusal);
    pdf = await unpdf.getDocumentProxy(new Uint8Array(job.bytes), { verbosity: 0, isEvalSupported: false });
    const text = await pdfPagesText(pdf);
    let title = null;
    try {
      const meta = await unpdf.getMeta(pdf);
      const t = meta && meta.info && meta.info.Title;
      if (typeof t === 'string' && t.trim()) title = t.trim();
    } catch (e) {}
    parentPort.postMessage({ id: job.id, text, pages: pdf.numPages, title });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  } finally {
    if (pdf) { try { await pdf.destroy(); } catch (e) {} }
  }
});
`;

/**
 * The entry of @research/core its package.json declares: compiled JavaScript, what a worker thread can
 * load (resolving '@research/core' itself gives its TypeScript sources under the tests' module mapping).
 */
function coreEntry(): string {
  const manifest = require.resolve('@research/core/package.json');
  const { main } = JSON.parse(readFileSync(manifest, 'utf8')) as { main: string };
  return path.join(path.dirname(manifest), main);
}

interface Pending {
  resolve(value: PdfText): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface PdfTextExtractorOptions {
  /** Longest time one PDF may take before its worker is stopped (a pathological file). */
  timeoutMs?: number;
  /** The worker thread stops after this long without work. */
  idleMs?: number;
  /** Heap cap of the worker thread, so a PDF bomb cannot take the process with it. */
  maxHeapMb?: number;
}

/**
 * PDF text extraction in a worker thread: parsing a large PDF is CPU work that would otherwise stall the
 * event loop (HTTP requests, queue lock renewals); a stuck or oversized file is ended by its timeout or
 * heap cap without harming the process, a PDF whose streams inflate past MAX_PDF_INFLATED_BYTES is
 * refused before it is parsed, and only the first MAX_PDF_PAGES pages are read (as the crawler does).
 * The thread starts on first use and stops when idle.
 */
export class PdfTextExtractor {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly timeoutMs: number;
  private readonly idleMs: number;
  private readonly maxHeapMb: number;

  constructor(options: PdfTextExtractorOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? MAX_PDF_MS;
    this.idleMs = options.idleMs ?? 10_000;
    this.maxHeapMb = options.maxHeapMb ?? 512;
  }

  /** The text of a PDF's first MAX_PDF_PAGES pages (joined), its metadata title and page count. */
  extract(bytes: Uint8Array): Promise<PdfText> {
    const worker = this.ensureWorker();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const id = this.nextId++;
    // A copy we can transfer: the caller keeps its buffer.
    const copy = new Uint8Array(bytes).buffer;
    return new Promise<PdfText>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.failAll(new Error(`PDF text extraction timed out after ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, bytes: copy }, [copy]);
    });
  }

  /** Stops the worker thread; pending extractions fail. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error('PDF text extraction stopped'));
      this.pending.delete(id);
    }
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        unpdfPath: require.resolve('unpdf'),
        corePath: coreEntry(),
      },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.on(
      'message',
      (message: { id: number; text?: string; pages?: number; title?: string | null; error?: string }) => {
        const p = this.pending.get(message.id);
        if (!p) return;
        this.pending.delete(message.id);
        clearTimeout(p.timer);
        if (message.error !== undefined) p.reject(new Error(`PDF could not be read: ${message.error}`));
        else p.resolve({ text: message.text ?? '', pages: message.pages ?? 0, title: message.title ?? null });
        this.scheduleIdleStop();
      },
    );
    worker.on('error', (error) => {
      if (this.worker === worker) this.failAll(new Error(`PDF reader stopped: ${error.message}`));
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.failAll(new Error('PDF reader stopped'));
    });
    // Never keep the process alive for this thread (after the listeners: adding one refs it again).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private scheduleIdleStop(): void {
    if (this.pending.size > 0 || !this.worker) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private failAll(error: Error): void {
    const worker = this.worker;
    this.worker = null;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
    if (worker) void worker.terminate();
  }
}
