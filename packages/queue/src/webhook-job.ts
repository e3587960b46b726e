import { z } from 'zod';
import type { Logger } from '@research/observability';

/** The webhook job: deliver (one attempt of) the webhook a run owes. The outbox row is the truth; ids only. */
export const WEBHOOK_JOB_NAME = 'webhook.deliver';
export const WEBHOOK_QUEUE_NAME = 'webhooks';

export const webhookJobPayloadSchema = z.object({ delivery_id: z.string().uuid() });
export type WebhookJobPayload = z.infer<typeof webhookJobPayloadSchema>;

/**
 * Makes one attempt at a delivery. Resolves with `retryInMs` when the next attempt is due later (the queue
 * keeps the job and runs it then), without when nothing is left to do (delivered, given up, or another
 * worker's). Throws when the database cannot be reached: the job is dropped and the dispatcher enqueues the
 * delivery again from its row.
 */
export type WebhookJobHandler = (payload: WebhookJobPayload, logger: Logger) => Promise<{ retryInMs: number } | void>;

/** Where deliveries are enqueued (idempotent: the job id is the delivery id). */
export interface WebhookQueue {
  enqueue(payload: WebhookJobPayload): Promise<void>;
  /** Stops taking jobs and waits for the attempts in flight. */
  close(): Promise<void>;
}
