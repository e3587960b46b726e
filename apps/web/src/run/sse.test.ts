import { initialSseState, parseSse, SseDecoder, type SseMessage } from './sse';

const event = (seq: number, type: string, extra: Record<string, unknown> = {}) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ seq, type, at: '2026-01-01T00:00:00.000Z', ...extra })}\n\n`;

// What the API sends, and what a proxy might make of it: comments, CRLF and CR line ends, multi-line data,
// a field without its space, characters of two, three and four UTF-8 bytes.
const STREAM =
  'retry: 2000\n\n' +
  ': keep-alive\n\n' +
  event(1, 'state', { state: 'created' }) +
  event(2, 'source', { title: 'Zürich — 東京 😀', outcome: 'fetched' }) +
  'id: 3\r\nevent: note\r\ndata: first\r\ndata:second\r\n\r\n' +
  'id: 4\revent: note\rdata: cr only\r\r' +
  'event: ignored-without-data\n\n' +
  ': keep-alive\n\n' +
  event(5, 'end', { state: 'completed' });

function readAll(chunks: Uint8Array[]) {
  const decoder = new SseDecoder();
  const messages: SseMessage[] = [];
  for (const chunk of chunks) messages.push(...decoder.push(chunk));
  return { messages, state: decoder.state };
}

describe('the event-stream parser', () => {
  const bytes = new TextEncoder().encode(STREAM);
  const whole = readAll([bytes]);

  it('reads ids, types, data, comments and retry as the standard says', () => {
    expect(whole.messages.map((m) => [m.id, m.event])).toEqual([
      ['1', 'state'],
      ['2', 'source'],
      ['3', 'note'],
      ['4', 'note'],
      ['5', 'end'],
    ]);
    expect(JSON.parse(whole.messages[1]!.data)).toMatchObject({ seq: 2, title: 'Zürich — 東京 😀' });
    expect(whole.messages[2]!.data).toBe('first\nsecond');
    expect(whole.messages[3]!.data).toBe('cr only');
    expect(whole.state.retry).toBe(2000);
    expect(whole.state.lastEventId).toBe('5');
  });

  it('gives the same events however the bytes are cut, inside a character or a CRLF included', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
    }
    expect(readAll(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)))).toEqual(whole);
  });

  it('keeps a frame cut off at the end of a piece until its blank line comes', () => {
    const first = parseSse(initialSseState, 'id: 7\nevent: state\ndata: {"seq":7}\n');
    expect(first.messages).toEqual([]);
    const second = parseSse(first.state, '\n');
    expect(second.messages).toEqual([{ id: '7', event: 'state', data: '{"seq":7}' }]);
  });

  it('takes an id as the last event id only when its frame ends (a reconnect never skips a cut-off event)', () => {
    const cut = parseSse(initialSseState, 'id: 3\ndata: {}\n\nid: 4\nevent: query\ndata: {"se');
    expect(cut.state.lastEventId).toBe('3');
  });

  it('names a frame without an event field "message" and ignores unknown fields and a bad retry', () => {
    const { state, messages } = parseSse(initialSseState, 'retry: soon\nfoo: bar\ndata\n\n');
    expect(messages).toEqual([{ id: '', event: 'message', data: '' }]);
    expect(state.retry).toBeNull();
  });
});
