import { sql } from 'kysely';
import type { CollectionDocumentRow, CollectionRow, Db } from '../schema';

/** What a collection's list item and its page show: the row and how many documents it holds. */
export type CollectionSummary = CollectionRow & { document_count: number };

/** A document without its text: what a list shows. */
export type CollectionDocumentSummary = Omit<CollectionDocumentRow, 'content' | 'search_vector'> & { chars: number };

/** One document a full-text search found, best first. */
export interface CollectionSearchMatch {
  id: string;
  collection_id: string;
  title: string;
  filename: string;
  content_sha256: string;
  rank: number;
  headline: string;
}

const documentCount = sql<number>`(select count(*)::int from collection_documents d where d.collection_id = collections.id)`;

/** Stores a new collection. */
export async function insertCollection(
  db: Db,
  row: Pick<CollectionRow, 'id' | 'owner_user_id' | 'name' | 'language' | 'text_search_config'> & {
    system_key?: string | null;
  },
): Promise<CollectionRow> {
  return db.insertInto('collections').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One collection with its document count, or undefined. */
export function findCollectionById(db: Db, id: string): Promise<CollectionSummary | undefined> {
  return db
    .selectFrom('collections')
    .selectAll()
    .select(documentCount.as('document_count'))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The service's own collection named `systemKey`, or undefined. */
export function findSystemCollection(db: Db, systemKey: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').selectAll().where('system_key', '=', systemKey).executeTakeFirst();
}

/** The ids among `ids` of collections the reader may read (its own and the service's; all with `everyone`). */
export function listReadableCollectionIds(
  db: Db,
  ids: readonly string[],
  reader: { userId: string; everyone: boolean },
): Promise<Array<Pick<CollectionRow, 'id'>>> {
  if (ids.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('collections')
    .select(['id'])
    .where('id', 'in', [...ids]);
  if (!reader.everyone) {
    query = query.where((eb) => eb.or([eb('owner_user_id', '=', reader.userId), eb('owner_user_id', 'is', null)]));
  }
  return query.execute();
}

/** The collections among `ids` that exist, with the configuration they are searched with. */
export function findCollectionScopes(
  db: Db,
  ids: readonly string[],
): Promise<Array<Pick<CollectionRow, 'id' | 'text_search_config'>>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('collections')
    .select(['id', 'text_search_config'])
    .where('id', 'in', [...ids])
    .execute();
}

/** A page of the collections a reader may see, newest first, with the total (`everyone`: an administrator). */
export async function listCollections(
  db: Db,
  reader: { userId: string; everyone: boolean },
  page: { limit: number; offset: number },
): Promise<{ total: number; items: CollectionSummary[] }> {
  let base = db.selectFrom('collections');
  if (!reader.everyone) {
    base = base.where((eb) => eb.or([eb('owner_user_id', '=', reader.userId), eb('owner_user_id', 'is', null)]));
  }
  const [count, items] = await Promise.all([
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .select(documentCount.as('document_count'))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { total: Number(count.n), items };
}

/** Deletes a collection and (cascade) its documents; true when it existed. */
export async function deleteCollection(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('collections').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Stores a document and its full-text index: `to_tsvector` with the collection's configuration over its title
 * and the first `indexedChars` characters of its text (a tsvector holds at most 1 MB).
 */
export async function insertCollectionDocument(
  db: Db,
  row: Omit<CollectionDocumentRow, 'created_at' | 'search_vector'>,
  index: { config: string; indexedChars: number },
): Promise<Omit<CollectionDocumentRow, 'content' | 'search_vector'>> {
  return db
    .insertInto('collection_documents')
    .values({
      ...row,
      search_vector: sql<string>`to_tsvector(${index.config}::regconfig, ${row.title} || ' ' || left(${row.content}, ${index.indexedChars}::int))`,
    })
    .returning(['id', 'collection_id', 'filename', 'title', 'content_type', 'bytes', 'content_sha256', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** A page of a collection's documents (without their text), newest first, with the total. */
export async function listCollectionDocuments(
  db: Db,
  collectionId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: CollectionDocumentSummary[] }> {
  const base = db.selectFrom('collection_documents').where('collection_id', '=', collectionId);
  const [count, items] = await Promise.all([
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'collection_id', 'filename', 'title', 'content_type', 'bytes', 'content_sha256', 'created_at'])
      .select(sql<number>`char_length(content)`.as('chars'))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { total: Number(count.n), items };
}

/** One document of a collection with its text, or undefined. */
export function findCollectionDocument(
  db: Db,
  collectionId: string,
  documentId: string,
): Promise<Omit<CollectionDocumentRow, 'search_vector'> | undefined> {
  return db
    .selectFrom('collection_documents')
    .select([
      'id',
      'collection_id',
      'filename',
      'title',
      'content_type',
      'bytes',
      'content',
      'content_sha256',
      'created_at',
    ])
    .where('collection_id', '=', collectionId)
    .where('id', '=', documentId)
    .executeTakeFirst();
}

/** Deletes one document of a collection; true when it existed. */
export async function deleteCollectionDocument(db: Db, collectionId: string, documentId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('collection_documents')
    .where('collection_id', '=', collectionId)
    .where('id', '=', documentId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The text search query of `query` in each of `configs` (as tsquery text). `all`: web search syntax (every word,
 * "a phrase", -not, or), what a person types; `any`: a document holding any of its words, more of them ranking
 * higher (a research question's words, which no document need hold all of): plainto_tsquery's lexemes, quoted
 * and joined by ' & ', joined by ' | ' instead.
 */
export async function textSearchQueries(
  db: Db,
  configs: readonly string[],
  query: string,
  match: 'all' | 'any',
): Promise<Map<string, string>> {
  if (configs.length === 0) return new Map();
  const tsquery =
    match === 'all'
      ? sql`websearch_to_tsquery(c.config, ${query})`
      : sql`replace(plainto_tsquery(c.config, ${query})::text, ' & ', ' | ')::tsquery`;
  const names = sql.join(
    [...new Set(configs)].map((config) => sql`(${config}::regconfig)`),
    sql`, `,
  );
  const result = await sql<{ config: string; query: string }>`
    select c.config::text as config, (${tsquery})::text as query from (values ${names}) as c(config)`.execute(db);
  return new Map(result.rows.map((row) => [row.config, row.query]));
}

/**
 * The best `limit` documents of the collections, each searched with its configuration's query (textSearchQueries:
 * a constant tsquery, so the GIN index finds the candidates), ranked by ts_rank, with a headline of the passage
 * that matched.
 */
export async function searchCollectionDocuments(
  db: Db,
  scopes: ReadonlyArray<{ id: string; config: string; query: string }>,
  limit: number,
): Promise<CollectionSearchMatch[]> {
  const searched = scopes.filter((s) => s.query !== '');
  if (searched.length === 0) return [];
  const matches = sql.join(
    searched.map(
      (s) =>
        sql`select d.id, d.collection_id, d.title, d.filename, d.content_sha256, d.content,
                   ${s.config}::regconfig as config, ${s.query}::tsquery as query,
                   ts_rank(d.search_vector, ${s.query}::tsquery) as rank
            from collection_documents d
            where d.collection_id = ${s.id}::uuid and d.search_vector @@ ${s.query}::tsquery`,
    ),
    sql` union all `,
  );
  const result = await sql<CollectionSearchMatch>`
    with matched as (select * from (${matches}) as m order by rank desc, id limit ${limit})
    select id, collection_id, title, filename, content_sha256, rank::float8 as rank,
           ts_headline(config, left(content, 100000), query,
                       'MaxWords=40, MinWords=15, MaxFragments=1, StartSel="", StopSel=""') as headline
    from matched
    order by rank desc, id`.execute(db);
  return result.rows;
}

// First key of the lock of a service's collection (its system_key second): apart from the run locks' space.
const SYSTEM_COLLECTION_LOCK_SPACE = 20261202;

/**
 * Takes the transaction's advisory lock of the service's collection `systemKey`, or answers false when another
 * process holds it (that process is bringing the collection in step already).
 */
export async function tryLockSystemCollection(db: Db, systemKey: string): Promise<boolean> {
  const result = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(${SYSTEM_COLLECTION_LOCK_SPACE}::int, hashtext(${systemKey})) as locked`.execute(
    db,
  );
  return result.rows[0]?.locked === true;
}

/** The service's collection `systemKey`, stored first when it is not there yet (no owner: readable by every key). */
export async function ensureSystemCollection(
  db: Db,
  row: Pick<CollectionRow, 'id' | 'name' | 'language' | 'text_search_config'> & { system_key: string },
): Promise<CollectionRow> {
  const inserted = await db
    .insertInto('collections')
    .values({ ...row, owner_user_id: null })
    .onConflict((oc) => oc.column('system_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  return (
    inserted ??
    db.selectFrom('collections').selectAll().where('system_key', '=', row.system_key).executeTakeFirstOrThrow()
  );
}

/** Every document of a collection by its file name, with its hash (no text): what a folder's sync compares. */
export function listCollectionFiles(
  db: Db,
  collectionId: string,
): Promise<Array<Pick<CollectionDocumentRow, 'id' | 'filename' | 'content_sha256'>>> {
  return db
    .selectFrom('collection_documents')
    .select(['id', 'filename', 'content_sha256'])
    .where('collection_id', '=', collectionId)
    .execute();
}

/** Deletes documents of a collection by id. */
export async function deleteCollectionDocuments(db: Db, collectionId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('collection_documents')
    .where('collection_id', '=', collectionId)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
