import type { ColumnType } from 'kysely';
import type { Db } from '@research/database';
import type { ExtractedDocument } from './extract/document';

/**
 * The `page_cache` table (migration 2026-11-22T0000-page-cache). Declared here, beside its only user;
 * the jsonb column is written as JSON text like every jsonb column of the service.
 */
export interface PageCacheTable {
  url: string;
  final_url: string;
  content_type: string;
  document: ColumnType<ExtractedDocument, string, string>;
  byte_size: number;
  fetched_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

function pageCache(db: Db) {
  return db.withTables<{ page_cache: PageCacheTable }>();
}

/** A cached page as the crawler uses it. */
export interface CachedPage {
  url: string;
  finalUrl: string;
  contentType: string;
  document: ExtractedDocument;
  byteSize: number;
  fetchedAt: Date;
}

/** The cached page of a normalised URL when it has not expired. */
export async function findCachedPage(db: Db, url: string, now: Date): Promise<CachedPage | undefined> {
  const row = await pageCache(db)
    .selectFrom('page_cache')
    .selectAll()
    .where('url', '=', url)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const document = typeof row.document === 'string' ? (JSON.parse(row.document) as ExtractedDocument) : row.document;
  return {
    url: row.url,
    finalUrl: row.final_url,
    contentType: row.content_type,
    document,
    byteSize: row.byte_size,
    fetchedAt: row.fetched_at,
  };
}

/** Stores (or refreshes) the cached page of a normalised URL. */
export async function upsertCachedPage(db: Db, page: CachedPage & { expiresAt: Date }): Promise<void> {
  const values = {
    url: page.url,
    final_url: page.finalUrl,
    content_type: page.contentType,
    // Postgres text cannot hold NUL; extraction strips it, this keeps the row writable regardless.
    document: JSON.stringify(page.document).replace(/\\u0000/g, ''),
    byte_size: page.byteSize,
    fetched_at: page.fetchedAt,
    expires_at: page.expiresAt,
  };
  await pageCache(db)
    .insertInto('page_cache')
    .values(values)
    .onConflict((oc) =>
      oc.column('url').doUpdateSet({
        final_url: values.final_url,
        content_type: values.content_type,
        document: values.document,
        byte_size: values.byte_size,
        fetched_at: values.fetched_at,
        expires_at: values.expires_at,
      }),
    )
    .execute();
}

/** Removes expired pages; returns how many. */
export async function deleteExpiredPages(db: Db, now: Date): Promise<number> {
  const result = await pageCache(db).deleteFrom('page_cache').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
