import { z } from 'zod';

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

/** Executes one research job; resolves when the run has ended or was handed back. */
export type ResearchJobHandler = (
  payload: ResearchJobPayload,
  job: { id: string; attempt: number; signal: AbortSignal },
) => Promise<void>;
