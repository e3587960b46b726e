import { sql } from 'kysely';
import type { Db, WebhookDeliveryRow } from '../schema';

/** A delivery with the callback_url of its run (undefined when the run is gone). */
export function findWebhookDelivery(
  db: Db,
  id: string,
): Promise<(WebhookDeliveryRow & { callback_url: string | null }) | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('research_runs', 'research_runs.id', 'webhook_deliveries.run_id')
    .selectAll('webhook_deliveries')
    .select('research_runs.callback_url')
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
}

/** Deliveries whose next attempt is due (not delivered, not given up), the longest waiting first. */
export function listDueWebhookDeliveries(db: Db, limit: number): Promise<Pick<WebhookDeliveryRow, 'id' | 'run_id'>[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'run_id'])
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Takes attempt `seen + 1` of a due delivery: only one caller gets it (the update is conditional on the
 * attempts it read), and the attempt is pushed `leaseMs` into the future, so no one else starts it while it
 * runs; a worker that dies mid-attempt leaves it due again after the lease. Returns the attempt's number.
 */
export async function claimWebhookAttempt(
  db: Db,
  id: string,
  claim: { seen: number; leaseMs: number },
): Promise<number | undefined> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: sql<number>`attempts + 1`,
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${claim.leaseMs / 1000})`,
    })
    .where('id', '=', id)
    .where('attempts', '=', claim.seen)
    .where('next_attempt_at', 'is not', null)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** What one attempt gave: the receiver's status code or an error, and what comes next. */
export interface WebhookAttemptOutcome {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
  /** Milliseconds until the next attempt; null: no more attempts (delivered or given up). */
  retryInMs: number | null;
}

/** Records an attempt in the delivery's history (once: a second record of the same attempt is dropped). */
export function insertWebhookAttempt(
  db: Db,
  deliveryId: string,
  outcome: Pick<WebhookAttemptOutcome, 'attempt' | 'statusCode' | 'error'> & { at?: Date },
) {
  return db
    .insertInto('webhook_delivery_attempts')
    .values({
      delivery_id: deliveryId,
      attempt: outcome.attempt,
      status_code: outcome.statusCode,
      error: outcome.error,
      ...(outcome.at ? { at: outcome.at } : {}),
    })
    .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
    .execute();
}

/** Sets a delivery's state after an attempt: delivered, due again later, or given up. */
export function settleWebhookDelivery(db: Db, deliveryId: string, outcome: WebhookAttemptOutcome) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      last_status: outcome.statusCode !== null ? String(outcome.statusCode) : outcome.error,
      delivered_at: outcome.delivered ? sql<Date>`now()` : null,
      next_attempt_at:
        outcome.retryInMs === null ? null : sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})`,
    })
    .where('id', '=', deliveryId)
    .where('attempts', '=', outcome.attempt)
    .executeTakeFirst();
}

/** One attempt of a run's webhook, as GET /v1/research/{id}/webhook-deliveries lists it. */
export interface WebhookAttemptRead {
  attempt: number;
  at: Date;
  status_code: number | null;
  error: string | null;
  event: string;
}

/** The attempts to deliver a run's webhook, oldest first. */
export function listWebhookAttempts(db: Db, runId: string): Promise<WebhookAttemptRead[]> {
  return db
    .selectFrom('webhook_delivery_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.attempt', 'a.at', 'a.status_code', 'a.error', 'd.event'])
    .where('d.run_id', '=', runId)
    .orderBy('a.attempt')
    .execute();
}
