import { z } from 'zod';
import type { Logger } from '@research/observability';

/** The one job of the service: run (or resume) the research pipeline of one run. Ids only, never secrets. */
export const RESEARCH_JOB_NAME = 'research.run';
export const RESEARCH_QUEUE_NAME = 'research';

export const researchJobPayloadSchema = z.object({
  research_id: z.string().uuid(),
  request_id: z.string().max(128).optional(),
});
export type ResearchJobPayload = z.infer<typeof researchJobPayloadSchema>;

/** What the producer side needs: enqueue a run (idempotent: the job id is the research id). */
export interface ResearchQueue {
  /** Adds the run's job unless one with that id already waits or runs. Throws when the queue is unreachable. */
  enqueue(payload: ResearchJobPayload): Promise<void>;
  /** True when the queue's backend answers (Redis ping; always true in-process). */
  ping(): Promise<boolean>;
  /** Ids of jobs that exist in the queue in any live state (waiting, active, delayed, prioritized). */
  liveJobIds?(ids: string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

/**
 * How a job ended for its queue:
 * - `done`: nothing left to do for this job (the run ended, was cancelled, or another worker owns it);
 * - `handed_back`: the worker is shutting down; put the job back so another worker resumes the run;
 * - `busy`: a live process already works on the run; try again later;
 * - `paused`: the run waits for the review of its plan; the job ends as `done` does, and once it is gone the
 *   queue calls its `onPaused` (an approval that came while the job was still live enqueued nothing).
 */
export type ResearchJobOutcome = 'done' | 'handed_back' | 'busy' | 'paused';

/** What a handler learns about the job it executes. */
export interface ResearchJobContext {
  id: string;
  /** 1-based attempt of this job (retries after a thrown error count; hand-backs do not). */
  attempt: number;
  /** The last attempt the queue will make; on it a handler ends the run as failed instead of throwing. */
  maxAttempts: number;
  /**
   * True when the job's previous pick-up stopped because the database or Redis was unreachable (the handler
   * threw such an error): this pick-up continues that one, so the run counts no new attempt for it.
   */
  afterOutage: boolean;
  /** Aborted when the worker shuts down: the handler stops and answers `handed_back`. */
  signal: AbortSignal;
  /** Carries research_id, job_id and request_id on every line. */
  logger?: Logger;
}

/** Executes one research job; resolves when the run has ended or was handed back. Throws to ask for a retry. */
export type ResearchJobHandler = (
  payload: ResearchJobPayload,
  job: ResearchJobContext,
) => Promise<ResearchJobOutcome | void>;

const UNAVAILABLE_RETRY_FIRST_MS = 500;
const UNAVAILABLE_RETRY_MAX_MS = 5_000;

/**
 * Wait before a job whose database or Redis was unreachable is tried again, after `failures` such tries
 * in a row: from 0.5 s doubling up to 5 s, so a run resumes within seconds of the end of an outage.
 * Jitter keeps a fleet's retries apart. Such retries spend none of the job's attempts.
 */
export function unavailableRetryDelayMs(failures: number): number {
  const base = Math.min(UNAVAILABLE_RETRY_FIRST_MS * 2 ** Math.max(0, failures), UNAVAILABLE_RETRY_MAX_MS);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
