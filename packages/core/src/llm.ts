import type { z } from 'zod';

/** Why an LLM call gave no usable answer; every kind makes the step fall back to the extractive engine. */
export type LlmFailureKind = 'budget' | 'tokens' | 'context' | 'http' | 'timeout' | 'network' | 'invalid' | 'aborted';

/** The one error an LlmClient throws: the research logic falls back on it and rethrows anything else. */
export class LlmFailure extends Error {
  constructor(
    readonly kind: LlmFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'LlmFailure';
  }
}

/** What a call needs of the step: the run's counters (usage), its budgets and its abort signal. */
export interface LlmCallContext {
  readonly usage: Record<string, number>;
  readonly budget: {
    readonly max_llm_requests: number;
    readonly max_context_per_llm_call: number;
    /** The run's cap on tokens in and out together (create field max_llm_tokens); none when absent or null. */
    readonly max_llm_tokens?: number | null;
  };
  readonly signal: AbortSignal;
}

export interface LlmRequest<T> {
  /** json_schema name (also the prompt id in logs). */
  name: string;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  maxTokens?: number;
  /** Images sent with the user message as image parts (vision models); not counted in the prompt size. */
  images?: ReadonlyArray<{ mediaType: string; base64: string }>;
}

/**
 * A structured-output LLM as the research logic sees it. Declared in core so that `@research/engine`
 * receives a client without depending on `@research/llm`, which implements it over HTTP.
 */
export interface LlmClient {
  readonly model: string;
  /**
   * One structured completion validated against `schema`, with one repair turn when the answer does
   * not validate. Counts every HTTP request in usage.llm_requests (and tokens in llm_tokens_input /
   * llm_tokens_output) and refuses to start one beyond budget.max_llm_requests, or once the tokens reach
   * budget.max_llm_tokens. Throws LlmFailure.
   */
  complete<T>(ctx: LlmCallContext, request: LlmRequest<T>): Promise<T>;
}
