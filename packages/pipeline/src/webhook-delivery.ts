import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { deadlineSignal, withTimeout } from '@research/core';
import {
  checkCallbackUrl,
  isCrawlError,
  type AddressPolicy,
  type GuardedAgents,
  type Resolver,
} from '@research/crawler';
import {
  claimWebhookAttempt,
  findWebhookDelivery,
  insertWebhookAttempt,
  settleWebhookDelivery,
  type Database,
  type WebhookAttemptOutcome,
} from '@research/database';
import type { Logger } from '@research/observability';

/** Attempts per delivery: the first and four retries. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** The record of an attempt whose worker stopped before it could say how it went. */
const LOST_ATTEMPT = 'no outcome: the worker stopped during the attempt';

/** The header that carries a delivery's signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Research-Signature';

/** What a worker needs to deliver webhooks. */
export interface WebhookDeliveryDeps {
  db: Database;
  /** WEBHOOK_SECRET: the HMAC key. */
  secret: string;
  timeoutMs: number;
  retryBaseMs: number;
  /** The crawler's address rules and the agents that apply them at connect time. */
  guard: { resolver: Resolver; policy: AddressPolicy };
  agents: GuardedAgents;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: what a receiver recomputes with the shared secret. */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The body a receiver gets, fields in the documented order. */
function webhookBody(payload: Record<string, unknown>): string {
  const { event, research_id, state, finished_at } = payload;
  return JSON.stringify({ event, research_id, state, finished_at });
}

/** The wait after failed attempt `attempt` (1-based): the base, doubling. */
export function webhookRetryDelayMs(baseMs: number, attempt: number): number {
  return baseMs * 2 ** (attempt - 1);
}

/** POSTs the body to the URL through the guarded agents; resolves with the status code (the body is discarded). */
function post(
  deps: WebhookDeliveryDeps,
  url: URL,
  signed: { body: string; signature: string },
  signal: AbortSignal,
): Promise<number> {
  const { body, signature } = signed;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        signal,
        agent: url.protocol === 'https:' ? deps.agents.https : deps.agents.http,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'research-service-webhooks',
          [WEBHOOK_SIGNATURE_HEADER]: signature,
        },
      },
      (response) => {
        // The receiver's answer is its own business: never read into memory, never logged.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The error text of an attempt that got no status code (safe to show the run's client). */
function attemptError(error: unknown, timeout: { signal: AbortSignal; ms: number }): string {
  if (isCrawlError(error)) return error.message;
  if (timeout.signal.aborted) return `no answer within ${timeout.ms} ms`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ? `connection failed (${code})` : 'connection failed';
}

/** One attempt: checks the URL again (the crawler's rules), POSTs the signed body, says what came of it. */
async function attempt(
  deps: WebhookDeliveryDeps,
  target: { url: string; body: string },
  number: number,
): Promise<WebhookAttemptOutcome> {
  let statusCode: number | null = null;
  let error: string | null = null;
  // The same clock as the address check's, which a test can tick.
  const { signal, clear } = deadlineSignal(deps.timeoutMs);
  try {
    const url = await withTimeout(checkCallbackUrl(target.url, deps.guard), deps.timeoutMs, 'webhook address');
    const signature = webhookSignature(deps.secret, target.body, Math.floor(Date.now() / 1000));
    statusCode = await post(deps, url, { body: target.body, signature }, signal);
  } catch (caught) {
    error = attemptError(caught, { signal, ms: deps.timeoutMs });
  } finally {
    clear();
  }
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const retryInMs = delivered || number >= WEBHOOK_MAX_ATTEMPTS ? null : webhookRetryDelayMs(deps.retryBaseMs, number);
  return { attempt: number, statusCode, error, delivered, retryInMs };
}

/**
 * The webhook job: re-reads the delivery (a delivered or given-up one is never sent again), takes its next
 * attempt (only one worker gets it), makes it and records it with the delivery's next state in one
 * transaction. Resolves with when to come back, if ever.
 */
export async function deliverWebhook(
  deps: WebhookDeliveryDeps,
  deliveryId: string,
  logger: Logger,
): Promise<{ retryInMs: number } | void> {
  const delivery = await findWebhookDelivery(deps.db, deliveryId);
  if (!delivery || delivery.next_attempt_at === null || delivery.callback_url === null) return;
  const wait = delivery.next_attempt_at.getTime() - Date.now();
  if (wait > 0) return { retryInMs: wait };
  // Leased for longer than an attempt can take: a worker that dies mid-attempt leaves it due after this.
  const leaseMs = deps.timeoutMs + 5_000;
  const number = await claimWebhookAttempt(deps.db, deliveryId, { seen: delivery.attempts, leaseMs });
  if (number === undefined) return;
  if (delivery.attempts > 0) {
    // The attempt before this one has a record unless its worker died during it: it gets one, dated when it began.
    const began = new Date(delivery.next_attempt_at.getTime() - leaseMs);
    const lost = { attempt: delivery.attempts, statusCode: null, error: LOST_ATTEMPT, at: began };
    await insertWebhookAttempt(deps.db, deliveryId, lost);
  }
  const outcome = await attempt(deps, { url: delivery.callback_url, body: webhookBody(delivery.payload) }, number);
  await deps.db.transaction().execute(async (trx) => {
    await insertWebhookAttempt(trx, deliveryId, outcome);
    await settleWebhookDelivery(trx, deliveryId, outcome);
  });
  const log = logger.child({ research_id: delivery.run_id });
  const fields = { event: delivery.event, attempt: number, status_code: outcome.statusCode, error: outcome.error };
  if (outcome.delivered) log.info('webhook delivered', fields);
  else if (outcome.retryInMs === null) log.warn('webhook given up', fields);
  else log.warn('webhook attempt failed; retrying', { ...fields, retry_in_ms: outcome.retryInMs });
  return outcome.retryInMs === null ? undefined : { retryInMs: outcome.retryInMs };
}
