import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sentences } from '@research/engine';
import { answerDelay } from '../support/loopback';

/** One scripted answer of the fake server. */
export type FakeLlmReply =
  | { kind: 'json'; content: unknown; delayMs?: number }
  | { kind: 'raw'; content: string; delayMs?: number }
  | { kind: 'status'; status: number; retryAfterSeconds?: number; delayMs?: number }
  | { kind: 'hang' };

export interface FakeLlmRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  authorization: string | null;
  /** json_schema name: research_plan, claims or report. */
  schemaName: string;
  receivedAt: number;
  /** When the answer was sent (0 while pending or when the client went away). */
  answeredAt: number;
  /** The `usage` the answer reported (OpenAI's chat completion shape), once a completion was sent. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface FakeLlm {
  /** As LLM_BASE_URL: `${origin}/v1`. */
  readonly baseUrl: string;
  readonly requests: FakeLlmRequest[];
  /** Replies used first, in order, before the responder. */
  readonly script: FakeLlmReply[];
  /** Answers requests the script does not cover (default: the plausible responder below). */
  responder: (request: FakeLlmRequest) => FakeLlmReply;
  /** Added to every answer (ms). */
  latencyMs: number;
  /** Largest number of requests in flight at once so far. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const WORD = /[\p{L}\p{N}]+/gu;
const SMALL = new Set(
  'the a an and or of to in on for with by from at as is are was were be been what which who how does do did same ' +
    'der die das und oder ist sind war wie was wer welche'.split(' '),
);

function terms(text: string): Set<string> {
  return new Set((text.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= 3 && !SMALL.has(w)));
}

function line(messages: FakeLlmRequest['messages'], prefix: string): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  return (
    user
      .split('\n')
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim() ?? ''
  );
}

function passageOf(messages: FakeLlmRequest['messages']): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const match = /"""\n([\s\S]*)\n"""/.exec(user);
  return match ? match[1]! : '';
}

/** Entity-like phrases of a question: runs of capitalised words. */
function entities(question: string): string[] {
  return [...question.matchAll(/(?:[A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)+)/gu)].map((m) => m[0]);
}

/** A claim as the fake model answers it (the claims schema). */
interface FakeClaim {
  claim_text: string;
  evidence_span: string;
  claim_type: string;
  confidence: number;
  stance?: string;
}

/**
 * The claims a plausible model extracts from the passage of a claims request: the six of its sentences that
 * share most words with the question (of those sharing one at all, in the passage's order), each quoted
 * exactly (or with typography changed when `mangleQuotes`), plus an invented one when `inventSpan`. A model
 * reads whole sentences ("Mr. Smith" does not end one: the product's own sentence splitter stands for that
 * reading) and quotes what bears most on the question, not the first sentences that merely mention a word of it.
 */
function plausibleClaims(
  request: FakeLlmRequest,
  options: { mangleQuotes?: boolean; inventSpan?: boolean } = {},
): FakeClaim[] {
  const wanted = terms(line(request.messages, 'Question:'));
  const passage = passageOf(request.messages);
  const shared = (s: string) => [...terms(s)].filter((w) => wanted.has(w)).length;
  const picked = sentences(passage, 'en', { min: 31 })
    .map((s, at) => ({ text: s.text, at, shared: shared(s.text) }))
    .filter((s) => s.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.at - b.at)
    .slice(0, 6)
    .sort((a, b) => a.at - b.at)
    .map((s) => s.text);
  const claims: FakeClaim[] = picked.map((s) => ({
    claim_text: s,
    evidence_span: options.mangleQuotes ? s.replace(/"/g, '“').replace(/'/g, '’').toUpperCase() : s,
    claim_type: /\d/.test(s) ? 'fact' : 'claim',
    confidence: 0.8,
  }));
  if (options.inventSpan)
    claims.push({
      claim_text: 'The moon is made of green cheese.',
      evidence_span: 'The moon is made of green cheese according to every astronomer.',
      claim_type: 'fact',
      confidence: 0.9,
    });
  return claims;
}

/**
 * A plausible model: plans from the question's words and names, extracts sentences of the passage that
 * share words with the question (quoting them exactly, or with typography changed when `mangle`), and
 * writes the report from the numbered findings, citing each.
 */
export function plausibleResponder(options: { mangleQuotes?: boolean; inventSpan?: boolean } = {}) {
  return (request: FakeLlmRequest): FakeLlmReply => {
    const question = line(request.messages, 'Question:');
    switch (request.schemaName) {
      case 'research_plan': {
        const names = entities(question);
        const key = [...terms(question)].slice(0, 5).join(' ');
        return {
          kind: 'json',
          content: {
            query_categories: ['general'],
            sub_questions: [question, ...names.map((n) => `What is known about ${n}?`)],
            search_queries: [
              { query: question, dimension: 'core' },
              ...names.map((n) => ({ query: n, dimension: 'entity' })),
              { query: key, dimension: 'key_terms' },
            ],
            counter_evidence_queries: [`${key} criticism`],
            required_fields: ['key_facts'],
            search_dimensions: ['core', 'entity'],
            time_sensitivity: 'none',
            confidence: 0.8,
          },
        };
      }
      case 'claims':
        return { kind: 'json', content: { claims: plausibleClaims(request, options) } };
      case 'bridge_queries': {
        // Names of the numbered sentences the question does not hold, as a model reading them would give.
        const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
        const limit = Number(/at most (\d+)/.exec(user)?.[1] ?? 2);
        const own = terms(question);
        const names = [...user.matchAll(/^\d+\. (.*)$/gm)]
          .flatMap((m) => entities(m[1]!))
          .filter((n) => [...terms(n)].some((t) => !own.has(t)));
        return { kind: 'json', content: { queries: [...new Set(names)].slice(0, limit) } };
      }
      case 'report': {
        const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
        const findings = [...user.matchAll(/^\[(\d+)\] (.*) \(sources: \d+, confidence: [\d.]+\)$/gm)].map((m) => ({
          number: Number(m[1]),
          text: m[2]!,
        }));
        const summary = findings
          .slice(0, 3)
          .map((f) => `${f.text.replace(/[.!?]+$/, '')} [${f.number}].`)
          .join(' ');
        return { kind: 'json', content: { summary: summary || 'Nothing found [1].', findings } };
      }
      default:
        return { kind: 'status', status: 400 };
    }
  };
}

// Everyday queries that no research question here is about: what a model that plans badly sends.
const OFF_TOPIC_QUERIES = [
  'easy pancake recipe',
  'weather forecast this weekend',
  'cheap flights to the coast',
  'how to fix a squeaky door',
  'best running shoes for beginners',
  'houseplants that need little light',
];

/**
 * A model that plans badly: its plans search only everyday queries unrelated to the question (the same few for
 * every question); claims and reports are written as by `plausibleResponder`.
 */
export function offTopicPlannerResponder() {
  const plausible = plausibleResponder();
  return (request: FakeLlmRequest): FakeLlmReply => {
    const reply = plausible(request);
    if (request.schemaName !== 'research_plan' || reply.kind !== 'json') return reply;
    return {
      kind: 'json',
      content: {
        ...(reply.content as Record<string, unknown>),
        search_queries: OFF_TOPIC_QUERIES.slice(0, 5).map((query) => ({ query, dimension: 'general' })),
        counter_evidence_queries: OFF_TOPIC_QUERIES.slice(5),
      },
    };
  };
}

/** Sentences whose stance toward a question is known (a data set's labels), by question. */
export type StanceLabels = ReadonlyMap<string, ReadonlyArray<{ sentence: string; stance: 'supports' | 'refutes' }>>;

/** Letters and digits only, lower case, single spaces: how labels, claims and questions are matched. */
function plain(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A fixed number in [0, 1) for a text (FNV-1a): the judge's deterministic "chance". */
function chanceOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

/** The share of refuting sentences the stance judge misses... */
export const JUDGE_MISSES = 0.2;
/** ...and of the other claims it wrongly calls refuting. */
export const JUDGE_FALSE_REFUTATIONS = 0.01;

/**
 * A model that extracts claims as `plausibleResponder` does and judges each claim's stance toward the
 * question as a good but imperfect model would, from labels it is given: a claim quoting a sentence labelled
 * refuting is `refutes`, except for `misses` of those sentences (chosen by a hash of the sentence), which it
 * calls `supports` or `neutral`; a claim quoting a supporting sentence is `supports`; any other claim is
 * `neutral`; and `falseRefutations` of the claims not quoting a refuting sentence (by a hash of the question
 * and the claim) it wrongly calls `refutes`. `seed` draws other mistakes. Plans, bridges and reports are the
 * plausible model's.
 */
export function stanceJudgeResponder(
  labels: StanceLabels,
  options: { misses?: number; falseRefutations?: number; seed?: string } = {},
) {
  const misses = options.misses ?? JUDGE_MISSES;
  const falseRefutations = options.falseRefutations ?? JUDGE_FALSE_REFUTATIONS;
  const seed = options.seed ?? '';
  const byQuestion = new Map(
    [...labels].map(([question, list]) => [plain(question), list.map((l) => ({ ...l, plain: plain(l.sentence) }))]),
  );
  const plausible = plausibleResponder();
  const stanceOf = (question: string, claim: string): string => {
    const text = plain(claim);
    const label = byQuestion
      .get(plain(question))
      ?.find((l) => text.length > 0 && (l.plain.includes(text) || text.includes(l.plain)));
    if (label?.stance === 'refutes') {
      if (chanceOf(`${seed}${label.plain}`) >= misses) return 'refutes';
      return chanceOf(`${seed}missed ${label.plain}`) < 0.5 ? 'supports' : 'neutral';
    }
    // A mistake of judging this claim against this question: the same sentence under another question is
    // judged afresh.
    if (chanceOf(`${seed}${plain(question)} ${text}`) < falseRefutations) return 'refutes';
    return label?.stance ?? 'neutral';
  };
  return (request: FakeLlmRequest): FakeLlmReply => {
    if (request.schemaName !== 'claims') return plausible(request);
    const question = line(request.messages, 'Question:');
    const claims = plausibleClaims(request).map((c) => ({ ...c, stance: stanceOf(question, c.evidence_span) }));
    return { kind: 'json', content: { claims } };
  };
}

/**
 * A loopback OpenAI-compatible server: `POST /v1/chat/completions` answers in the chat completion shape
 * (choices[0].message.content, usage.prompt_tokens / completion_tokens ≈ characters / 4), from a script of
 * replies (JSON, malformed text, HTTP errors with Retry-After, slowness, hanging) and then a responder;
 * `GET /v1/models` lists the model.
 */
export async function startFakeLlm(options: { latencyMs?: number; model?: string } = {}): Promise<FakeLlm> {
  const model = options.model ?? 'fake-model';
  let inFlight = 0;
  const state = {
    requests: [] as FakeLlmRequest[],
    script: [] as FakeLlmReply[],
    responder: plausibleResponder(),
    latencyMs: options.latencyMs ?? 0,
    maxInFlight: 0,
  };
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', owned_by: 'fake' }] }));
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<
        FakeLlmRequest,
        'authorization' | 'schemaName' | 'receivedAt' | 'answeredAt'
      >;
      const request: FakeLlmRequest = {
        ...body,
        authorization: req.headers.authorization ?? null,
        schemaName: body.response_format?.json_schema?.name ?? '',
        receivedAt: Date.now(),
        answeredAt: 0,
      };
      state.requests.push(request);
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      try {
        res.once('finish', () => {
          request.answeredAt = Date.now();
        });
        const reply = state.script.shift() ?? state.responder(request);
        if (reply.kind === 'hang') {
          await new Promise<void>((resolve) => res.once('close', () => resolve()));
          return;
        }
        await answerDelay(state.latencyMs + (reply.delayMs ?? 0), res);
        if (res.destroyed) return;
        if (reply.kind === 'status') {
          res.writeHead(reply.status, {
            'content-type': 'application/json',
            ...(reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {}),
          });
          res.end(JSON.stringify({ error: { message: `status ${reply.status}`, type: 'server_error' } }));
          return;
        }
        const content = reply.kind === 'json' ? JSON.stringify(reply.content) : reply.content;
        const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
        const promptTokens = Math.ceil(promptChars / 4);
        const completionTokens = Math.ceil(content.length / 4);
        request.usage = {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${state.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: request.usage,
          }),
        );
      } finally {
        inFlight--;
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    baseUrl: `${origin}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}
