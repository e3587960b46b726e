// Server-Sent Events read by hand: an EventSource cannot send the X-API-Key header, so the page fetches the
// stream and parses its frames here, as the HTML standard's event-stream interpretation does.

/** One event as the stream sent it. */
export interface SseMessage {
  /** The last `id:` seen up to this event ('' before any). */
  id: string;
  /** `event:`, or 'message' when the frame named none. */
  event: string;
  /** The frame's `data:` lines, joined by line feeds. */
  data: string;
}

/** Where a parse stands between chunks. */
export interface SseState {
  /** Text after the last line end, waiting for the rest of its line. */
  partial: string;
  /** The previous chunk ended with CR: a LF that starts the next one ends no further line. */
  afterCR: boolean;
  event: string;
  data: string[] | null;
  /** The `id:` read so far; it becomes the last event id when its frame ends. */
  idBuffer: string;
  /**
   * The id of the last frame that ended (what a reconnect sends as Last-Event-ID): an id read in a frame
   * that a dropped connection cut off is not taken.
   */
  lastEventId: string;
  /** The server's `retry:` in milliseconds, when it sent one. */
  retry: number | null;
}

export const initialSseState: SseState = {
  partial: '',
  afterCR: false,
  event: '',
  data: null,
  idBuffer: '',
  lastEventId: '',
  retry: null,
};

const LINE_END = /\r\n|\r|\n/g;

function fieldOf(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon < 0) return [line, ''];
  const value = line.slice(colon + 1);
  return [line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value];
}

/** Applies one whole line to `s` (mutated: a copy parseSse owns), adding a finished frame to `out`. */
function applyLine(s: SseState, line: string, out: SseMessage[]): void {
  if (line === '') {
    s.lastEventId = s.idBuffer;
    if (s.data !== null) out.push({ id: s.lastEventId, event: s.event || 'message', data: s.data.join('\n') });
    s.event = '';
    s.data = null;
    return;
  }
  if (line.startsWith(':')) return;
  const [field, value] = fieldOf(line);
  if (field === 'data') s.data = [...(s.data ?? []), value];
  else if (field === 'event') s.event = value;
  else if (field === 'id' && !value.includes('\0')) s.idBuffer = value;
  else if (field === 'retry' && /^\d+$/.test(value)) s.retry = Number(value);
}

/**
 * Reads the next piece of decoded stream text: the frames it completes and the state to carry to the next
 * piece. Lines may end with CRLF, LF or CR, and a piece may stop anywhere, a CRLF split between two included.
 */
export function parseSse(state: SseState, chunk: string): { state: SseState; messages: SseMessage[] } {
  if (chunk === '') return { state, messages: [] };
  const text = state.afterCR && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
  const s: SseState = { ...state, afterCR: text.endsWith('\r') };
  const messages: SseMessage[] = [];
  let from = 0;
  for (const end of text.matchAll(LINE_END)) {
    applyLine(s, s.partial + text.slice(from, end.index), messages);
    s.partial = '';
    from = end.index + end[0].length;
  }
  s.partial += text.slice(from);
  return { state: s, messages };
}

/** A stream's bytes to its events: UTF-8 decoded across chunk ends (a character may be split between two). */
export class SseDecoder {
  private readonly decoder = new TextDecoder();
  state: SseState;

  /** A new connection's decoder keeps the last one's event id and retry time, and nothing else. */
  constructor(previous?: SseState) {
    this.state = previous
      ? { ...initialSseState, idBuffer: previous.lastEventId, lastEventId: previous.lastEventId, retry: previous.retry }
      : initialSseState;
  }

  push(bytes: Uint8Array): SseMessage[] {
    const { state, messages } = parseSse(this.state, this.decoder.decode(bytes, { stream: true }));
    this.state = state;
    return messages;
  }
}
