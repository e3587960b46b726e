import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';

/** A hot statement kept as SQL text in a repository (see preparedQuery). */
export interface PreparedQuery {
  readonly name: string;
  readonly text: string;
}

const declaredNames = new Set<string>();

/**
 * Declares a hot statement. On a Postgres server each pooled connection parses and plans it once, by
 * name, instead of on every call (planning a join costs more than running a primary-key lookup). List
 * the columns explicitly: a prepared `select *` fails once a later migration adds a column.
 */
export function preparedQuery(name: string, text: string): PreparedQuery {
  if (declaredNames.has(name)) throw new Error(`Prepared statement ${name} is declared twice`);
  declaredNames.add(name);
  return Object.freeze({ name, text });
}

// The pg pool under each Kysely instance connectPostgres opened.
const poolsByDatabase = new WeakMap<object, pg.Pool>();

/** Records the pg pool under a Kysely instance (connectPostgres does). */
export function attachPool(db: object, pool: pg.Pool): void {
  poolsByDatabase.set(db, pool);
}

/**
 * Runs a prepared statement and returns its rows. On a Postgres server's pool it goes straight to pg as
 * a named statement: the request hot path, where Kysely's connection handling costs as much as the
 * query. In a transaction (its own connection) and on PGlite it runs through Kysely, unprepared.
 */
export async function runPreparedQuery<R extends object>(
  db: Kysely<any> | Transaction<any>,
  query: PreparedQuery,
  parameters: unknown[],
): Promise<R[]> {
  const pool = poolsByDatabase.get(db);
  if (pool)
    return (await pool.query<R & pg.QueryResultRow>({ name: query.name, text: query.text, values: parameters })).rows;
  return (await db.executeQuery<R>(CompiledQuery.raw(query.text, parameters))).rows;
}
