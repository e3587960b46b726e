import crypto from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback';

/** One POST the receiver got, with whether its signature held for the secret. */
export interface ReceivedWebhook {
  at: number;
  body: string;
  json: Record<string, unknown>;
  signature: string;
  validSignature: boolean;
}

export interface WebhookReceiver extends LoopbackServer {
  readonly received: ReceivedWebhook[];
  /** The status codes to answer, in order; 200 once they run out. */
  answers: number[];
}

/**
 * A webhook receiver on loopback that verifies `X-Research-Signature` as docs/guide.md (Webhooks) tells receivers to:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the shared secret, compared in constant time.
 */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const state = { answers: [] as number[] };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const signature = String(req.headers['x-research-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
      const expected = match ? crypto.createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex') : '';
      const validSignature =
        match !== null && crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(match[2]!, 'hex'));
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as it came
      }
      received.push({ at: Date.now(), body, json, signature, validSignature });
      res.statusCode = state.answers.shift() ?? 200;
      res.end('receiver body that must not be logged');
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    port: loopback.port,
    origin: loopback.origin,
    received,
    get answers() {
      return state.answers;
    },
    set answers(value: number[]) {
      state.answers = value;
    },
    close: loopback.close,
  };
}
