import http from 'node:http';
import { listenOnLoopback } from '../support/loopback';

/** One chat completion request the fake vision model received. */
export interface FakeVisionRequest {
  model: string;
  authorization: string | null;
  /** The image parts' data URLs, in order. */
  images: string[];
  text: string;
  schemaName: string | null;
}

export interface FakeVision {
  /** As VISION_BASE_URL: `${origin}/v1`. */
  readonly baseUrl: string;
  readonly requests: FakeVisionRequest[];
  /** The answer's JSON (default: a description of the image with one grounded and one invented claim). */
  answer: unknown;
  /** Answer with this HTTP status instead (e.g. 500). */
  failWith: number | null;
  close(): Promise<void>;
}

export const FAKE_DESCRIPTION = 'A bar chart titled "Output per hour" shows 100 in 2019 and 113 in 2021.';

/**
 * A loopback OpenAI-compatible vision model: `POST /v1/chat/completions` with image parts, answering
 * in the chat completion shape with the scripted JSON as the message content.
 */
export async function startFakeVision(): Promise<FakeVision> {
  const requests: FakeVisionRequest[] = [];
  const state = {
    answer: {
      description: FAKE_DESCRIPTION,
      claims: [
        {
          claim_text: 'Output per hour rose from 100 in 2019 to 113 in 2021.',
          evidence_span: 'shows 100 in 2019 and 113 in 2021',
          claim_type: 'fact',
          confidence: 0.9,
        },
        {
          claim_text: 'The chart was published by the ministry.',
          evidence_span: 'published by the ministry of labour',
          claim_type: 'claim',
          confidence: 0.5,
        },
      ],
    } as unknown,
    failWith: null as number | null,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        messages: Array<{
          role: string;
          content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
        }>;
        response_format?: { json_schema?: { name?: string } };
      };
      const user = body.messages.find((m) => m.role === 'user')?.content;
      const parts = Array.isArray(user) ? user : [{ type: 'text', text: user ?? '' }];
      requests.push({
        model: body.model,
        authorization: req.headers.authorization ?? null,
        images: parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url),
        text: parts
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join('\n'),
        schemaName: body.response_format?.json_schema?.name ?? null,
      });
      if (state.failWith !== null) {
        res.writeHead(state.failWith, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          model: body.model,
          choices: [
            { index: 0, message: { role: 'assistant', content: JSON.stringify(state.answer) }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
        }),
      );
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    close,
  };
}

/** A 1x1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
