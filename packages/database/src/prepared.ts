import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db } from './schema';

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

/** The pg pool under a Kysely instance of connectPostgres; undefined for PGlite and transactions. */
export function poolOf(db: object): pg.Pool | undefined {
  return poolsByDatabase.get(db);
}

/**
 * Runs a prepared statement and returns its rows. On a Postgres server's pool it goes straight to pg as
 * a named statement: the request hot path, where Kysely's connection handling costs as much as the
 * query. In a transaction (its own connection) and on PGlite it runs through Kysely, unprepared.
 */
export async function runPreparedQuery<R extends object>(
  db: Db,
  query: PreparedQuery,
  parameters: unknown[],
): Promise<R[]> {
  const pool = poolsByDatabase.get(db);
  if (pool) {
    return (await pool.query<R & pg.QueryResultRow>({ name: query.name, text: query.text, values: parameters })).rows;
  }
  return (await db.executeQuery<R>(CompiledQuery.raw(query.text, parameters))).rows;
}

interface PendingLookup {
  readonly parameters: readonly unknown[];
  resolve(row: object | undefined): void;
  reject(error: unknown): void;
}

/**
 * A prepared statement that answers many lookups at once (see runBatchedLookup). Its parameter n is the
 * array of every lookup's parameter n; each row carries `i`, the 1-based position of the lookup it
 * answers, and no lookup has more than one row.
 */
export interface BatchedQuery extends PreparedQuery {
  readonly maxBatch: number;
  /** Lookups waiting for the next flush, per pool. */
  readonly pending: WeakMap<pg.Pool, PendingLookup[]>;
}

/** Declares a batched lookup statement (see BatchedQuery for its shape). */
export function batchedQuery(name: string, text: string, maxBatch = 128): BatchedQuery {
  return { ...preparedQuery(name, text), maxBatch, pending: new WeakMap() };
}

function flush(pool: pg.Pool, query: BatchedQuery): void {
  const lookups = query.pending.get(pool) ?? [];
  query.pending.delete(pool);
  for (let start = 0; start < lookups.length; start += query.maxBatch) {
    const batch = lookups.slice(start, start + query.maxBatch);
    const columns = batch[0]!.parameters.map((_, n) => batch.map((lookup) => lookup.parameters[n]));
    pool.query<{ i: number }>({ name: query.name, text: query.text, values: columns }).then(
      ({ rows }) => {
        const answers: Array<object | undefined> = new Array(batch.length);
        for (const row of rows) answers[Number(row.i) - 1] = row;
        batch.forEach((lookup, index) => lookup.resolve(answers[index]));
      },
      (error: unknown) => {
        for (const lookup of batch) lookup.reject(error);
      },
    );
  }
}

/**
 * Runs one lookup of a batched statement; resolves with its row, or undefined. On a Postgres server's
 * pool, the lookups made in one turn of the event loop (concurrent requests) share one execution: one
 * round trip and one statement for all of them instead of one each. Nothing is cached: every lookup is
 * answered by a statement that started after it was made. In a transaction and on PGlite it runs alone.
 */
export async function runBatchedLookup<R extends object>(
  db: Db,
  query: BatchedQuery,
  parameters: readonly unknown[],
): Promise<(R & { i: number }) | undefined> {
  const pool = poolsByDatabase.get(db);
  if (!pool) {
    const rows = await runPreparedQuery<R & { i: number }>(
      db,
      query,
      parameters.map((value) => [value]),
    );
    return rows[0];
  }
  return new Promise((resolve, reject) => {
    let lookups = query.pending.get(pool);
    if (!lookups) {
      lookups = [];
      query.pending.set(pool, lookups);
      // After the I/O callbacks of this turn: every request read in it has made its lookup by then.
      setImmediate(flush, pool, query);
    }
    lookups.push({ parameters, resolve: resolve as (row: object | undefined) => void, reject });
  });
}
