import { sql, type ColumnType, type Kysely } from 'kysely';
import type { DB, Db } from '../schema';

// jsonb written as JSON text, read parsed (as in schema.ts).
type Json<T> = ColumnType<T, string, string>;

export interface ClaimClustersTable {
  id: string;
  run_id: string;
  position: number;
  representative_claim_id: string;
  source_ids: Json<string[]>;
  independent_groups: number;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ClaimClusterMembersTable {
  cluster_id: string;
  claim_id: string;
  position: number;
}

export interface ClaimRelationsTable {
  run_id: string;
  position: number;
  claim_id: string;
  related_claim_id: string;
  relation: string;
  contradiction_kind: string | null;
  detail: string | null;
}

/** The tables of the claim graph (migration 2026-11-22T0200-claim-graph) on top of DB. */
export interface ClaimGraphDB extends DB {
  claim_clusters: ClaimClustersTable;
  claim_cluster_members: ClaimClusterMembersTable;
  claim_relations: ClaimRelationsTable;
}

function graphDb(db: Db): Kysely<ClaimGraphDB> {
  // Same connection; the claim-graph tables are only known to this module's type.
  return db as unknown as Kysely<ClaimGraphDB>;
}

export interface NewClaimCluster {
  id: string;
  position: number;
  representative_claim_id: string;
  source_ids: string[];
  independent_groups: number;
  claim_ids: string[];
}

export interface NewClaimRelation {
  claim_id: string;
  related_claim_id: string;
  relation: string;
  contradiction_kind: string | null;
  detail: string | null;
}

/** Removes a run's stored clusters and relations (they no longer describe its claims). */
export async function deleteClaimGraph(db: Db, runId: string): Promise<void> {
  const g = graphDb(db);
  await g.deleteFrom('claim_relations').where('run_id', '=', runId).execute();
  await g.deleteFrom('claim_clusters').where('run_id', '=', runId).execute();
}

/** Replaces a run's clusters, their members and its claim relations (call inside a transaction). */
export async function replaceClaimGraph(
  db: Db,
  runId: string,
  graph: { clusters: NewClaimCluster[]; relations: NewClaimRelation[]; computedAt: Date },
): Promise<void> {
  const g = graphDb(db);
  await deleteClaimGraph(db, runId);
  const SLICE = 500;
  for (let i = 0; i < graph.clusters.length; i += SLICE) {
    const slice = graph.clusters.slice(i, i + SLICE);
    await g
      .insertInto('claim_clusters')
      .values(
        slice.map((c) => ({
          id: c.id,
          run_id: runId,
          position: c.position,
          representative_claim_id: c.representative_claim_id,
          source_ids: JSON.stringify(c.source_ids),
          independent_groups: c.independent_groups,
          created_at: graph.computedAt,
        })),
      )
      .execute();
    const members = slice.flatMap((c) =>
      c.claim_ids.map((claimId, position) => ({ cluster_id: c.id, claim_id: claimId, position })),
    );
    for (let j = 0; j < members.length; j += SLICE) {
      await g
        .insertInto('claim_cluster_members')
        .values(members.slice(j, j + SLICE))
        .execute();
    }
  }
  for (let i = 0; i < graph.relations.length; i += SLICE) {
    await g
      .insertInto('claim_relations')
      .values(graph.relations.slice(i, i + SLICE).map((r, k) => ({ ...r, run_id: runId, position: i + k })))
      .execute();
  }
}

export interface ClaimClusterRow {
  id: string;
  position: number;
  representative_claim_id: string;
  source_ids: string[];
  independent_groups: number;
  created_at: Date;
  claim_ids: string[];
}

/** A run's clusters in order, each with its member claim ids in order (one query). */
export async function listClaimClusters(db: Db, runId: string): Promise<ClaimClusterRow[]> {
  const rows = await graphDb(db)
    .selectFrom('claim_clusters as c')
    .select([
      'c.id',
      'c.position',
      'c.representative_claim_id',
      'c.source_ids',
      'c.independent_groups',
      'c.created_at',
      sql<
        string[]
      >`coalesce((select json_agg(m.claim_id order by m.position) from claim_cluster_members m where m.cluster_id = c.id), '[]'::json)`.as(
        'claim_ids',
      ),
    ])
    .where('c.run_id', '=', runId)
    .orderBy('c.position')
    .execute();
  return rows;
}

export type ClaimRelationRow = Omit<ClaimRelationsTable, 'run_id'>;

/** One page of a run's claim relations, in the order they were found. */
export function listClaimRelations(
  db: Db,
  runId: string,
  page: { limit: number; offset: number },
): Promise<ClaimRelationRow[]> {
  return graphDb(db)
    .selectFrom('claim_relations')
    .select(['position', 'claim_id', 'related_claim_id', 'relation', 'contradiction_kind', 'detail'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many claim relations a run has stored. */
export async function countClaimRelations(db: Db, runId: string): Promise<number> {
  const row = await graphDb(db)
    .selectFrom('claim_relations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
