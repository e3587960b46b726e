import {
  isRetryableStatus,
  LlmFailure,
  parseRetryAfter,
  priceOfTokens,
  Semaphore,
  withRetries,
  type AppConfig,
  type BackoffPolicy,
  type LlmCallContext,
  type LlmClient,
  type LlmFailureKind,
  type LlmPrices,
  type LlmRequest,
} from '@research/core';
import type { Logger, Metrics } from '@research/observability';
import { z } from 'zod';
import { jsonSchemaOf } from './json-schema';

export interface LlmClientOptions {
  config: AppConfig['llm'];
  metrics: Metrics;
  logger: Logger;
  /** HTTP attempts per request on 408, 429, 5xx, timeouts and network errors (default 3). */
  maxAttempts?: number;
  /** First backoff in ms; doubles per attempt, with core's jitter (default 500). */
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

/** A failed attempt another one may cure (timeout, network error, 408, 429, 5xx). */
class RetryableError extends Error {
  constructor(
    readonly kind: LlmFailureKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

type ChatResponse = z.infer<typeof chatResponseSchema>;

/** Where and how one client sends its requests. */
interface ChatEndpoint {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
}

/** One HTTP exchange with the chat endpoint: the parsed completion, or a RetryableError or LlmFailure. */
async function exchange(endpoint: ChatEndpoint, body: string, signal: AbortSignal): Promise<ChatResponse> {
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const failed = (what: string, error: unknown): Error => {
    if (signal.aborted) return new LlmFailure('aborted', 'Step aborted');
    if (timeout.aborted) return new RetryableError('timeout', `LLM request timed out after ${endpoint.timeoutMs} ms`);
    return new RetryableError('network', `${what}: ${(error as Error).message}`);
  };
  let response: Response;
  let text: string;
  try {
    response = await fetch(endpoint.url, {
      method: 'POST',
      headers: endpoint.headers,
      body,
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw failed('LLM request failed', error);
  }
  try {
    text = await response.text();
  } catch (error) {
    throw failed('LLM response failed', error);
  }
  const status = `LLM server answered HTTP ${response.status}`;
  if (isRetryableStatus(response.status)) {
    throw new RetryableError('http', status, parseRetryAfter(response.headers.get('retry-after')));
  }
  if (!response.ok) throw new LlmFailure('http', status);
  try {
    return chatResponseSchema.parse(JSON.parse(text));
  } catch {
    throw new LlmFailure('invalid', 'LLM server answered without a chat completion');
  }
}

/** What one client holds: its endpoint, its concurrency limit, its retry policy and where it reports. */
interface ChatClient {
  readonly endpoint: ChatEndpoint;
  readonly model: string;
  readonly semaphore: Semaphore;
  readonly policy: BackoffPolicy;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** What the provider charges, for the estimated cost counter (null: not counted). */
  readonly prices: LlmPrices | null;
}

function reserve(ctx: LlmCallContext): void {
  const used = ctx.usage.llm_requests ?? 0;
  if (used >= ctx.budget.max_llm_requests) {
    throw new LlmFailure('budget', `LLM request budget of ${ctx.budget.max_llm_requests} is spent`);
  }
  // Tokens are known only once a request is answered: requests already in flight may carry a run past its
  // cap, but none starts after it is reached.
  const tokenCap = ctx.budget.max_llm_tokens;
  if (tokenCap && (ctx.usage.llm_tokens_input ?? 0) + (ctx.usage.llm_tokens_output ?? 0) >= tokenCap) {
    throw new LlmFailure('tokens', `LLM token budget of ${tokenCap} is spent`);
  }
  // Counted when reserved, synchronously: parallel calls of one step can never overshoot the budget.
  ctx.usage.llm_requests = used + 1;
}

/** One attempt: a request reserved from the run's budget, sent under the client's limit, counted. */
async function attemptChat(client: ChatClient, ctx: LlmCallContext, body: string): Promise<{ content: string }> {
  reserve(ctx);
  const started = performance.now();
  try {
    const result = await client.semaphore.run(() => exchange(client.endpoint, body, ctx.signal));
    const tokensIn = result.usage?.prompt_tokens ?? 0;
    const tokensOut = result.usage?.completion_tokens ?? 0;
    ctx.usage.llm_tokens_input = (ctx.usage.llm_tokens_input ?? 0) + tokensIn;
    ctx.usage.llm_tokens_output = (ctx.usage.llm_tokens_output ?? 0) + tokensOut;
    client.metrics.llmRequest('ok', (performance.now() - started) / 1000, tokensIn, tokensOut);
    const price = priceOfTokens(client.prices, tokensIn, tokensOut);
    if (price !== null) client.metrics.llmCost(price);
    return { content: result.choices[0]!.message.content ?? '' };
  } catch (error) {
    client.metrics.llmRequest('error', (performance.now() - started) / 1000, 0, 0);
    throw error;
  }
}

/** The LlmFailure a call ends in, whatever its last attempt threw. */
function llmFailureOf(error: unknown, signal: AbortSignal): LlmFailure {
  if (error instanceof LlmFailure) return error;
  if (error instanceof RetryableError) return new LlmFailure(error.kind, error.message);
  if (signal.aborted && error === signal.reason) return new LlmFailure('aborted', 'Step aborted');
  return new LlmFailure('network', (error as Error).message);
}

/** One chat completion with core's retry policy; throws LlmFailure. */
async function send(
  client: ChatClient,
  ctx: LlmCallContext,
  request: LlmRequest<unknown>,
  messages: ChatMessage[],
): Promise<{ content: string }> {
  const body = JSON.stringify({
    model: client.model,
    messages,
    temperature: 0,
    ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    response_format: {
      type: 'json_schema',
      json_schema: { name: request.name, schema: jsonSchemaOf(request.schema), strict: true },
    },
  });
  ctx.signal.throwIfAborted();
  try {
    return await withRetries(() => attemptChat(client, ctx, body), {
      policy: client.policy,
      signal: ctx.signal,
      // A long Retry-After is waited out only up to maxRetryAfterMs, then the call tries again (a search
      // provider gives up instead): rate-limit windows of LLM servers are short and often end early.
      classify: (error) =>
        error instanceof RetryableError
          ? {
              retry: true,
              afterMs:
                error.retryAfterMs === undefined
                  ? undefined
                  : Math.min(error.retryAfterMs, client.policy.maxRetryAfterMs),
            }
          : { retry: false },
      onRetry: ({ attempt, error }) =>
        client.logger.debug('retrying LLM request', {
          prompt: request.name,
          attempt,
          reason: (error as Error).message,
        }),
    });
  } catch (error) {
    throw llmFailureOf(error, ctx.signal);
  }
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
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const client: ChatClient = {
    endpoint: { url: `${config.baseUrl}/chat/completions`, headers, timeoutMs: config.timeoutMs },
    model: config.model ?? 'default',
    semaphore: new Semaphore(config.maxConcurrency),
    policy: {
      attempts: options.maxAttempts ?? 3,
      baseDelayMs: options.retryBaseMs ?? 500,
      maxDelayMs: 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
    },
    metrics,
    logger,
    prices: config.prices ?? null,
  };
  return {
    model: client.model,
    complete: <T>(ctx: LlmCallContext, request: LlmRequest<T>) => completeStructured(client, ctx, request),
  };
}

function userMessage(request: LlmRequest<unknown>): ChatMessage {
  if (!request.images?.length) return { role: 'user', content: request.user };
  return {
    role: 'user',
    content: [
      { type: 'text', text: request.user },
      ...request.images.map((image): ContentPart => ({
        type: 'image_url',
        image_url: { url: `data:${image.mediaType};base64,${image.base64}` },
      })),
    ],
  };
}

/** What is wrong with an answer against the request's schema, or its value when nothing is. */
function checkAnswer<T>(
  request: LlmRequest<T>,
  content: string,
): { ok: true; value: T } | { ok: false; problem: string } {
  try {
    const result = request.schema.safeParse(parseJsonContent(content));
    return result.success ? { ok: true, value: result.data } : { ok: false, problem: describeIssues(result.error) };
  } catch {
    return { ok: false, problem: 'the answer is not valid JSON' };
  }
}

async function completeStructured<T>(client: ChatClient, ctx: LlmCallContext, request: LlmRequest<T>): Promise<T> {
  const messages: ChatMessage[] = [{ role: 'system', content: request.system }, userMessage(request)];
  if (promptSize(messages) > ctx.budget.max_context_per_llm_call) {
    throw new LlmFailure(
      'context',
      `Prompt of ${promptSize(messages)} characters exceeds max_context_per_llm_call (${ctx.budget.max_context_per_llm_call})`,
    );
  }
  let lastProblem = '';
  for (let turn = 1; turn <= 2; turn++) {
    const { content } = await send(client, ctx, request as LlmRequest<unknown>, messages);
    const answer = checkAnswer(request, content);
    if (answer.ok) return answer.value;
    lastProblem = answer.problem;
    if (turn === 2) break;
    // One repair turn: the model sees its answer and what is wrong with it. The repair prompt is
    // bounded too; an answer too long to send back is not repaired.
    const repair: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: content.slice(0, 4000) },
      {
        role: 'user',
        content: `Your answer does not match the required JSON schema: ${answer.problem}. Answer again with only the corrected JSON object.`,
      },
    ];
    if (promptSize(repair) > ctx.budget.max_context_per_llm_call) break;
    messages.splice(0, messages.length, ...repair);
  }
  throw new LlmFailure('invalid', `LLM answer failed validation: ${lastProblem}`);
}
