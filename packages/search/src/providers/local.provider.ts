import { existsSync, promises as fs, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { AppError } from '@research/core';
import type { Logger } from '@research/observability';
import { localContentType, readDocumentText } from '../local/local-documents';
import { readLocalDocument, toLocalUrl, type LocalDocument } from '../local/local-url';
import { PdfTextExtractor } from '../local/pdf-text';
import { SearchProviderError, type SearchHit, type SearchOptions, type SearchProvider } from '../search-provider';
import type { SearchProviderRegistration } from './provider-deps';

const PROVIDER = 'local';

export interface LocalProviderOptions {
  /** LOCAL_CORPUS_DIR. */
  corpusDir: string;
  logger: Logger;
  /** Rescan interval (mtime polling), a safety net where file events are unreliable (network mounts). */
  pollIntervalMs?: number;
  /** Quiet time after a file event before the index is refreshed (editors write in bursts). */
  debounceMs?: number;
  /** Watch the folder for changes (fs.watch, recursive); polling alone when false. */
  watch?: boolean;
}

interface IndexedFile {
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  title: string;
  text: string;
}

/** One document of the local index (LocalSearchProvider.indexedDocuments). */
export interface LocalIndexedDocument {
  path: string;
  title: string;
  text: string;
  stamp: string;
  bytes: number;
}

interface FileStamp {
  abs: string;
  mtimeMs: number;
  ctimeMs: number;
  size: number;
}

/** Folds case and diacritics so "Müller", "MÜLLER" and "muller" meet; what MiniSearch indexes and searches. */
function foldTerm(term: string): string | null {
  const folded = term
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
  return folded.length > 0 ? folded : null;
}

const SNIPPET_CHARS = 240;

/** The passage of `text` (about 240 characters) holding most of the query's terms, on word boundaries. */
export function bestPassage(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const folded = flat.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  // NFD folding can change lengths; positions are only exact when it did not.
  const haystack = folded.length === flat.length ? folded : flat.toLowerCase();
  const positions: number[] = [];
  for (const term of terms) {
    let from = 0;
    for (let i = 0; i < 50; i++) {
      const at = haystack.indexOf(term, from);
      if (at < 0) break;
      positions.push(at);
      from = at + term.length;
    }
  }
  let start = 0;
  let bestScore = -1;
  for (const position of positions) {
    const begin = Math.max(0, position - 60);
    const window = haystack.slice(begin, begin + SNIPPET_CHARS);
    const score = terms.filter((t) => window.includes(t)).length;
    if (score > bestScore) {
      bestScore = score;
      start = begin;
    }
  }
  let end = Math.min(flat.length, start + SNIPPET_CHARS);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < start + 30) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + SNIPPET_CHARS / 2) end = space;
  }
  return `${start > 0 ? '… ' : ''}${flat.slice(start, end).trim()}${end < flat.length ? ' …' : ''}`;
}

/**
 * Full-text search over LOCAL_CORPUS_DIR (.md, .markdown, .txt, .html, .htm, .pdf; hidden files and
 * symbolic links are skipped). MiniSearch ranks with BM25+ (title boosted). The index is built at start
 * (searches wait for it) and refreshed incrementally: on file events (debounced) and by mtime polling.
 * Hits carry `local:<relative path>` URLs, which `readDocument` (or `readLocalDocument`) reads back.
 * published_at is null: a file's modification time is not a publication date.
 */
export class LocalSearchProvider implements SearchProvider {
  readonly name = PROVIDER;
  readonly corpusDir: string;
  private readonly logger: Logger;
  private readonly files = new Map<string, IndexedFile>();
  // Files that could not be read, by their stamp: retried only once they change (keeps polls quiet).
  private readonly unreadable = new Map<string, string>();
  private readonly index: MiniSearch<{ id: string; title: string; text: string }>;
  private readonly pdf = new PdfTextExtractor();
  private readonly ready: Promise<void>;
  private readyError: Error | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private closed = false;
  private watcher: FSWatcher | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private debounceTimer: NodeJS.Timeout | null = null;
  private readonly debounceMs: number;

  constructor(options: LocalProviderOptions) {
    this.corpusDir = path.resolve(options.corpusDir);
    this.logger = options.logger;
    this.debounceMs = options.debounceMs ?? 300;
    this.index = new MiniSearch({
      fields: ['title', 'text'],
      storeFields: [],
      processTerm: foldTerm,
      searchOptions: { boost: { title: 2 }, combineWith: 'OR', prefix: false, fuzzy: false },
    });
    this.ready = this.refresh().catch((error: Error) => {
      this.readyError = error;
    });
    if (options.watch !== false) this.startWatching();
    const pollMs = options.pollIntervalMs ?? 30_000;
    if (pollMs > 0) {
      this.pollTimer = setInterval(() => void this.refresh().catch(() => undefined), pollMs);
      this.pollTimer.unref();
    }
  }

  /** Resolves when the first index build is done. */
  async whenReady(): Promise<void> {
    await this.ready;
    if (this.readyError) throw this.readyError;
  }

  /** Number of documents in the index. */
  get documentCount(): number {
    return this.files.size;
  }

  /**
   * The documents of the index as it stands (each file's path relative to the folder, title, text and a stamp that
   * changes when the file does): what the folder's collection is kept in step with.
   */
  indexedDocuments(): LocalIndexedDocument[] {
    return [...this.files].map(([path, file]) => ({
      path,
      title: file.title,
      text: file.text,
      stamp: `${file.mtimeMs}:${file.ctimeMs}:${file.size}`,
      bytes: file.size,
    }));
  }

  async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
    await this.ready;
    if (this.readyError) {
      throw new SearchProviderError(
        PROVIDER,
        'unavailable',
        `cannot read its corpus folder (${this.readyError.message})`,
      );
    }
    options.signal?.throwIfAborted();
    const terms = [
      ...new Set((query.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => foldTerm(t)).filter((t): t is string => t !== null)),
    ];
    const limit = Math.max(1, Math.min(100, Math.floor(options.limit)));
    return this.index
      .search(query)
      .slice(0, limit)
      .map((result, i) => {
        const file = this.files.get(String(result.id));
        return {
          url: toLocalUrl(String(result.id)),
          title: file?.title ?? String(result.id),
          snippet: file ? bestPassage(file.text, terms) : '',
          published_at: null,
          provider: PROVIDER,
          rank: i + 1,
        };
      });
  }

  /** Reads one corpus document back by its `local:` URL (for the fetch step). */
  readDocument(url: string): Promise<LocalDocument> {
    return readLocalDocument(url, this.corpusDir, this.pdf);
  }

  /**
   * Brings the index up to date with the folder: new and changed files are (re)read, removed ones dropped.
   * Concurrent calls share one pass, and a call during a pass schedules one more.
   */
  refresh(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.rerun = false;
          await this.syncOnce();
        } while (this.rerun && !this.closed);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    this.watcher = null;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    await this.running?.catch(() => undefined);
    await this.pdf.close();
  }

  private startWatching(): void {
    try {
      this.watcher = watch(this.corpusDir, { recursive: true, persistent: false }, () => this.scheduleRefresh());
      this.watcher.on('error', (error) => {
        this.logger.warn('local corpus watcher stopped; relying on polling', { provider: PROVIDER, error });
        this.watcher?.close();
        this.watcher = null;
      });
    } catch (error) {
      this.logger.warn('local corpus cannot be watched; relying on polling', { provider: PROVIDER, error });
    }
  }

  private scheduleRefresh(): void {
    if (this.closed) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => void this.refresh().catch(() => undefined), this.debounceMs);
    this.debounceTimer.unref();
  }

  private async scan(): Promise<Map<string, FileStamp>> {
    const found = new Map<string, FileStamp>();
    const walk = async (dir: string, prefix: string): Promise<void> => {
      const entries = await fs.readdir(dir, { withFileTypes: true });
      for (const entry of entries) {
        if (this.closed) return;
        if (entry.name.startsWith('.')) continue;
        const abs = path.join(dir, entry.name);
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          await walk(abs, rel).catch((error) =>
            this.logger.warn('local corpus folder unreadable', { provider: PROVIDER, path: rel, error }),
          );
        } else if (entry.isFile() && localContentType(entry.name)) {
          try {
            const stat = await fs.stat(abs);
            found.set(rel, { abs, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size });
          } catch {
            // Removed between readdir and stat: it is simply not there.
          }
        }
      }
    };
    await walk(this.corpusDir, '');
    return found;
  }

  private async syncOnce(): Promise<void> {
    if (this.closed) return;
    const started = Date.now();
    const found = await this.scan();
    let added = 0;
    let removed = 0;
    let failed = 0;
    for (const id of [...this.unreadable.keys()]) if (!found.has(id)) this.unreadable.delete(id);
    for (const id of [...this.files.keys()]) {
      if (!found.has(id)) {
        this.drop(id);
        removed++;
      }
    }
    for (const [id, stamp] of found) {
      if (this.closed) return;
      const known = this.files.get(id);
      if (known && known.mtimeMs === stamp.mtimeMs && known.ctimeMs === stamp.ctimeMs && known.size === stamp.size) {
        continue;
      }
      const stampKey = `${stamp.mtimeMs}:${stamp.ctimeMs}:${stamp.size}`;
      if (this.unreadable.get(id) === stampKey) continue;
      try {
        const doc = await readDocumentText(stamp.abs, this.pdf);
        this.unreadable.delete(id);
        this.drop(id);
        this.files.set(id, { ...stamp, title: doc.title, text: doc.text });
        this.index.add({ id, title: doc.title, text: doc.text });
        added++;
      } catch (error) {
        failed++;
        this.unreadable.set(id, stampKey);
        if (known) this.drop(id);
        this.logger.warn('local corpus file skipped', { provider: PROVIDER, path: id, error });
      }
    }
    if (added + removed + failed > 0) {
      this.logger.info('local corpus indexed', {
        provider: PROVIDER,
        documents: this.files.size,
        updated: added,
        removed,
        skipped: failed,
        duration_ms: Date.now() - started,
      });
    }
  }

  private drop(id: string): void {
    if (!this.files.has(id)) return;
    this.files.delete(id);
    this.index.discard(id);
  }
}

export function createLocalProvider(options: LocalProviderOptions): LocalSearchProvider {
  return new LocalSearchProvider(options);
}

/** SEARCH_PROVIDER=local: LOCAL_CORPUS_DIR, a folder that must exist at start. */
export const localRegistration: SearchProviderRegistration = {
  missingSetting: (search) => (search.localCorpusDir ? undefined : 'LOCAL_CORPUS_DIR'),
  endpoint: () => null,
  create: (search, { logger }) => {
    const dir = search.localCorpusDir!;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new AppError('internal', `LOCAL_CORPUS_DIR is not a readable folder: ${dir}`);
    }
    return createLocalProvider({ corpusDir: dir, logger, pollIntervalMs: search.localCorpusPollMs });
  },
};
