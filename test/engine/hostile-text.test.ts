import {
  analyzeSources,
  chunkText,
  extractivePlan,
  groundSpan,
  planTerms,
  prepareGrounding,
  sentences,
} from '@research/engine';
import { segmenterCacheSizes } from '../../packages/engine/src/text/sentences';
import { WORST_BLOCK_MARGIN_MS, worstEventLoopBlock } from '../support/event-loop';

// Inputs of issue 10 ("No input stalls the service"): text within the size limits that used to hold the
// event loop for seconds to hours.
const DR = 'Dr. '.repeat(50_000); // 200 KB: 37.6 s on the claims route before the fix
const GERMAN = 'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller. Im Jahr 2020 wuchs sie um 1,2 Prozent. ';

const plan = extractivePlan({
  query: 'Wie viele Einwohner hat die Stadt?',
  language: 'de',
  extraQueries: [],
  referenceDate: new Date('2025-06-01T00:00:00Z'),
});
const terms = planTerms(plan, plan.query);

describe('sentence splitting of hostile text', () => {
  it('splits 200 KB of "Dr. " in linear time (it took 34 s)', () => {
    const started = performance.now();
    expect(sentences(DR, 'en')).toEqual([]);
    expect(sentences(DR, 'en', { min: 1, max: Number.MAX_SAFE_INTEGER })).toEqual([{ text: DR.trim(), start: 0 }]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('finds the same sentences in one long line as in short ones (abbreviations merged across windows)', () => {
    const line = GERMAN.repeat(2_000);
    const found = sentences(line, 'de');
    expect(found).toHaveLength(4_000);
    expect(new Set(found.map((s) => s.text))).toEqual(
      new Set(['Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller.', 'Im Jahr 2020 wuchs sie um 1,2 Prozent.']),
    );
    for (const s of found) expect(line.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });

  it('keeps one segmenter per base language, whatever language strings arrive', () => {
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 20_000; i++)
      sentences('Ein Satz mit genug Wörtern darin. Noch einer.', `de-x-${i.toString(36)}`);
    for (let i = 0; i < 2_000; i++) sentences('Ein Satz mit genug Wörtern darin.', `q${i.toString(36)}-DE`);
    expect(segmenterCacheSizes().segmenters).toBeLessThanOrEqual(64);
    expect(segmenterCacheSizes().tags).toBeLessThanOrEqual(256);
    // 20,000 distinct strings grew the heap by 109 MB when each had its own segmenter.
    expect(process.memoryUsage().rss - before).toBeLessThan(60 * 1024 * 1024);
    expect(sentences(GERMAN, 'de-AT')).toEqual(sentences(GERMAN, 'de'));
  });
});

describe('claim extraction never holds the event loop', () => {
  it.each([
    ['200 KB of "Dr. "', DR],
    ['200 KB of ordinary text', GERMAN.repeat(2_100).slice(0, 200_000)],
    ['a 3 MB page of ordinary paragraphs', `${GERMAN.repeat(8)}\n\n`.repeat(4_000)],
  ])('extracts claims from %s in slices', async (_name, text) => {
    const { result, worstMs } = await worstEventLoopBlock(() =>
      analyzeSources(null, { signal: new AbortController().signal } as never, {
        runId: 'r',
        question: plan.query,
        subQuestions: [],
        language: 'de',
        terms,
        sources: [{ id: 's', url: 'https://example.org', title: null, content: text }],
        llmAllowance: 0,
      }),
    );
    expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
    for (const claim of result.claims) expect(text).toContain(claim.evidence_span);
  });

  it('chunks and grounds spans in a 3 MB source in slices, with the answers of the one-shot functions', async () => {
    const source = `${GERMAN.repeat(8)}\n\n`.repeat(4_000) + 'Am Ende steht ein „ganz besonderer“ Satz über die Stadt.';
    const spans = [
      'Am Ende steht ein "ganz besonderer" Satz über die Stadt.',
      'die stadt hat 3,5 mio. einwohner laut dr. müller',
      'Der Mond ist aus Käse gemacht.',
    ];
    const { result, worstMs } = await worstEventLoopBlock(async () => {
      const chunks = await chunkText(source, 20_000, 'de');
      const grounding = prepareGrounding(source, 'de');
      const grounded: Array<string | null> = [];
      for (const span of spans) grounded.push(await grounding.ground(span));
      return { chunks, grounded };
    });
    expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
    expect(result.chunks.every((c) => c.length <= 20_000)).toBe(true);
    expect(result.grounded).toEqual([
      'Am Ende steht ein „ganz besonderer“ Satz über die Stadt.',
      'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller.',
      null,
    ]);
    const small = source.slice(-2_000);
    for (const span of spans)
      expect(await prepareGrounding(small, 'de').ground(span)).toBe(groundSpan(span, small, 'de'));
  });
});
