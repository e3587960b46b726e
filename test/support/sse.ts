import http from 'node:http';

/** One Server-Sent Event as a client parses it. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: any;
}

export interface SseStream {
  /** Status and headers of the response. */
  response: Promise<http.IncomingMessage>;
  /** Events received so far (grows while the stream is open). */
  events: SseEvent[];
  /** Comment lines received so far (`: keep-alive`). */
  comments: string[];
  /** Resolves when the server ends the stream (or the connection closes). */
  closed: Promise<void>;
  /** Receive times (ms, performance.now()) of the events, by index. */
  receivedAt: number[];
  close(): void;
}

/** Opens `url` as an event stream (Accept: text/event-stream) and parses what arrives, as EventSource does. */
export function openSse(url: string, headers: Record<string, string> = {}): SseStream {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const receivedAt: number[] = [];
  let req!: http.ClientRequest;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      resolve(res);
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          parseFrame(frame, events, comments, receivedAt);
        }
      });
      res.on('close', resolveClosed);
    });
    req.on('error', (error) => {
      reject(error);
      resolveClosed();
    });
  });
  response.catch(() => undefined);
  return { response, events, comments, closed, receivedAt, close: () => req.destroy() };
}

function parseFrame(frame: string, events: SseEvent[], comments: string[], receivedAt: number[]): void {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return;
  events.push({ id, event, data: JSON.parse(data.join('\n')) });
  receivedAt.push(performance.now());
}
