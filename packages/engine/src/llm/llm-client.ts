import { Semaphore, type AppConfig } from '@research/core';
import type { Logger, Metrics } from '@research/observability';
import { z } from 'zod';
import { jsonSchemaOf } from './json-schema';

/** Why an LLM call gave no usable answer; every kind makes the step fall back to the extractive engine. */
export type LlmFailureKind = 'budget' | 'context' | 'http' | 'timeout' | 'network' | 'invalid' | 'aborted';

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
  readonly budget: { readonly max_llm_requests: number; readonly max_context_per_llm_call: number };
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

export interface LlmClient {
  readonly model: string;
  /**
   * One structured completion validated against `schema`, with one repair turn when the answer does
   * not validate. Counts every HTTP request in usage.llm_requests (and tokens in llm_tokens_input /
   * llm_tokens_output) and refuses to start one beyond budget.max_llm_requests. Throws LlmFailure.
   */
  complete<T>(ctx: LlmCallContext, request: LlmRequest<T>): Promise<T>;
}

export interface LlmClientOptions {
  config: AppConfig['llm'];
  metrics: Metrics;
  logger: Logger;
  /** HTTP attempts per request on 429, 5xx, timeouts and network errors (default 3). */
  maxAttempts?: number;
  /** First backoff in ms; doubles per attempt, with full jitter (default 500). */
  retryBaseMs?: number;
  /** Longest wait honoured from a Retry-After header (default 10 s). */
  maxRetryAfterMs?: number;
}

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

const chatResponseSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }).passthrough() }).passthrough())
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() })
    .passthrough()
    .nullable()
    .optional(),
});

class RetryableError extends Error {
  constructor(
    readonly kind: LlmFailureKind,
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

function retryAfter(header: string | null, maxMs: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(maxMs, Math.max(0, ms)) : null;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The prompt's size in characters: what max_context_per_llm_call bounds (a conservative token proxy). */
export function promptSize(messages: Array<{ content: string | ContentPart[] }>): number {
  return messages.reduce(
    (n, m) =>
      n +
      (typeof m.content === 'string'
        ? m.content.length
        : m.content.reduce((k, part) => k + (part.type === 'text' ? part.text.length : 0), 0)),
    0,
  );
}

function parseJsonContent(content: string): unknown {
  const trimmed = content.trim();
  // Some servers wrap JSON in a code fence even in JSON mode.
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  return JSON.parse(fenced ? fenced[1]! : trimmed);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * The OpenAI-compatible chat client (OpenAI, Ollama, vLLM, llama.cpp, LM Studio): POST
 * {LLM_BASE_URL}/chat/completions with response_format json_schema (strict). One per process: its
 * semaphore holds LLM_MAX_CONCURRENCY across every run the process works on.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { config, metrics, logger } = options;
  if (!config.baseUrl) throw new Error('createLlmClient needs LLM_BASE_URL');
  const endpoint = `${config.baseUrl}/chat/completions`;
  const model = config.model ?? 'default';
  const semaphore = new Semaphore(config.maxConcurrency);
  const maxAttempts = options.maxAttempts ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;

  function reserve(ctx: LlmCallContext): void {
    const used = ctx.usage.llm_requests ?? 0;
    if (used >= ctx.budget.max_llm_requests) {
      throw new LlmFailure('budget', `LLM request budget of ${ctx.budget.max_llm_requests} is spent`);
    }
    // Counted when reserved, synchronously: parallel calls of one step can never overshoot the budget.
    ctx.usage.llm_requests = used + 1;
  }

  async function send(
    ctx: LlmCallContext,
    request: LlmRequest<unknown>,
    messages: ChatMessage[],
  ): Promise<{ content: string }> {
    const body = JSON.stringify({
      model,
      messages,
      temperature: 0,
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
      response_format: {
        type: 'json_schema',
        json_schema: { name: request.name, schema: jsonSchemaOf(request.schema), strict: true },
      },
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

    for (let attempt = 1; ; attempt++) {
      ctx.signal.throwIfAborted();
      reserve(ctx);
      const started = performance.now();
      try {
        const result = await semaphore.run(async () => {
          const timeout = AbortSignal.timeout(config.timeoutMs);
          let response: Response;
          try {
            response = await fetch(endpoint, {
              method: 'POST',
              headers,
              body,
              signal: AbortSignal.any([ctx.signal, timeout]),
            });
          } catch (error) {
            if (ctx.signal.aborted) throw new LlmFailure('aborted', 'Step aborted');
            if (timeout.aborted)
              throw new RetryableError('timeout', `LLM request timed out after ${config.timeoutMs} ms`, null);
            throw new RetryableError('network', `LLM request failed: ${(error as Error).message}`, null);
          }
          let text: string;
          try {
            text = await response.text();
          } catch (error) {
            if (ctx.signal.aborted) throw new LlmFailure('aborted', 'Step aborted');
            if (timeout.aborted)
              throw new RetryableError('timeout', `LLM request timed out after ${config.timeoutMs} ms`, null);
            throw new RetryableError('network', `LLM response failed: ${(error as Error).message}`, null);
          }
          if (response.status === 429 || response.status >= 500) {
            throw new RetryableError(
              'http',
              `LLM server answered HTTP ${response.status}`,
              retryAfter(response.headers.get('retry-after'), maxRetryAfterMs),
            );
          }
          if (!response.ok) throw new LlmFailure('http', `LLM server answered HTTP ${response.status}`);
          let parsed: z.infer<typeof chatResponseSchema>;
          try {
            parsed = chatResponseSchema.parse(JSON.parse(text));
          } catch {
            throw new LlmFailure('invalid', 'LLM server answered without a chat completion');
          }
          return parsed;
        });
        const tokensIn = result.usage?.prompt_tokens ?? 0;
        const tokensOut = result.usage?.completion_tokens ?? 0;
        ctx.usage.llm_tokens_input = (ctx.usage.llm_tokens_input ?? 0) + tokensIn;
        ctx.usage.llm_tokens_output = (ctx.usage.llm_tokens_output ?? 0) + tokensOut;
        metrics.llmRequest('ok', (performance.now() - started) / 1000, tokensIn, tokensOut);
        return { content: result.choices[0]!.message.content ?? '' };
      } catch (error) {
        metrics.llmRequest('error', (performance.now() - started) / 1000, 0, 0);
        if (error instanceof LlmFailure) throw error;
        if (!(error instanceof RetryableError)) throw new LlmFailure('network', (error as Error).message);
        if (attempt >= maxAttempts) throw new LlmFailure(error.kind, error.message);
        // Full jitter keeps a fleet of workers from retrying in step; Retry-After wins when given.
        const backoff = error.retryAfterMs ?? Math.random() * retryBaseMs * 2 ** (attempt - 1);
        logger.debug('retrying LLM request', { prompt: request.name, attempt, reason: error.message });
        await sleep(backoff, ctx.signal).catch(() => {
          throw new LlmFailure('aborted', 'Step aborted');
        });
      }
    }
  }

  return {
    model,
    async complete<T>(ctx: LlmCallContext, request: LlmRequest<T>): Promise<T> {
      const messages: ChatMessage[] = [
        { role: 'system', content: request.system },
        {
          role: 'user',
          content: request.images?.length
            ? [
                { type: 'text', text: request.user },
                ...request.images.map((image): ContentPart => ({
                  type: 'image_url',
                  image_url: { url: `data:${image.mediaType};base64,${image.base64}` },
                })),
              ]
            : request.user,
        },
      ];
      if (promptSize(messages) > ctx.budget.max_context_per_llm_call) {
        throw new LlmFailure(
          'context',
          `Prompt of ${promptSize(messages)} characters exceeds max_context_per_llm_call (${ctx.budget.max_context_per_llm_call})`,
        );
      }
      let lastProblem = '';
      for (let turn = 1; turn <= 2; turn++) {
        const { content } = await send(ctx, request as LlmRequest<unknown>, messages);
        let problem: string;
        try {
          const result = request.schema.safeParse(parseJsonContent(content));
          if (result.success) return result.data;
          problem = describeIssues(result.error);
        } catch {
          problem = 'the answer is not valid JSON';
        }
        lastProblem = problem;
        if (turn === 2) break;
        // One repair turn: the model sees its answer and what is wrong with it. The repair prompt is
        // bounded too; an answer too long to send back is not repaired.
        const repair: ChatMessage[] = [
          ...messages,
          { role: 'assistant', content: content.slice(0, 4000) },
          {
            role: 'user',
            content: `Your answer does not match the required JSON schema: ${problem}. Answer again with only the corrected JSON object.`,
          },
        ];
        if (promptSize(repair) > ctx.budget.max_context_per_llm_call) break;
        messages.splice(0, messages.length, ...repair);
      }
      throw new LlmFailure('invalid', `LLM answer failed validation: ${lastProblem}`);
    },
  };
}
