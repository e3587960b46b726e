import { readCheckpoint } from '@research/pipeline';

describe('reading a stored checkpoint', () => {
  it('reads the notes of a run checkpointed before typed events as the events they stood for', () => {
    const stored = {
      round: 1,
      done: ['plan', 'search', 'fetch'],
      rounds: 2,
      notes: [
        'engine:plan:1:llm',
        'fallback:analyze:1:timeout:2',
        'search:1:6:14',
        'fetch:1:9:7',
        'budget:search_queries:8:3',
        'budget:download_bytes:9000',
        'search_failures:1:2:6',
        'ungrounded:1:4',
        'A remark in words.',
      ],
    };
    expect(readCheckpoint(stored, 2)).toEqual({
      round: 1,
      done: ['plan', 'search', 'fetch'],
      rounds: 2,
      notes: [
        { kind: 'engine', step: 'plan', round: 1, mode: 'llm' },
        { kind: 'fallback', step: 'analyze', round: 1, reason: 'timeout', count: 2 },
        { kind: 'search', round: 1, sent: 6, hits: 14 },
        { kind: 'fetch', round: 1, candidates: 9, accepted: 7 },
        { kind: 'budget', resource: 'search_queries', max: 8, dropped: 3 },
        { kind: 'budget', resource: 'download_bytes', max: 9000, dropped: 0 },
        { kind: 'search_failures', round: 1, failed: 2, total: 6 },
        { kind: 'ungrounded', round: 1, count: 4 },
        { kind: 'remark', text: 'A remark in words.' },
      ],
    });
  });

  it('keeps stored events and drops entries that are neither events nor notes', () => {
    const event = { kind: 'search', round: 2, sent: 3, hits: 5 };
    const { notes } = readCheckpoint({ round: 2, done: [], rounds: 2, notes: [event, { kind: 'nonsense' }, 42] }, 2);
    expect(notes).toEqual([event]);
  });
});
