import { normalizeWhitespace, registrableDomain } from '@research/core';
import {
  buildEvidenceGraph,
  chunkText,
  extractClaims,
  extractivePlan,
  firstRoundQueries,
  groundSpan,
  planTerms,
  scoreEvidence,
  sentences,
  termSet,
  type ClaimInput,
  type SourceInput,
  claimTextOf,
} from '@research/engine';

const reference = new Date('2025-06-01T00:00:00Z');

/** The extractive claims of `text` for a run asking `query`. */
function claimsOf(text: string, query: string, language: string) {
  const plan = extractivePlan({ query, language, extraQueries: [], referenceDate: reference });
  return extractClaims({ runId: 'r', sourceId: 's', text, language, terms: planTerms(plan, plan.query) });
}

describe('extractive planner', () => {
  it('plans in the run language from the query terms, names and question patterns', () => {
    const de = extractivePlan({
      query: 'Wie viele Einwohner hat Berlin heute?',
      language: 'de',
      extraQueries: ['Berlin Bevölkerung Statistik'],
      referenceDate: reference,
    });
    expect(de.query_categories).toEqual(expect.arrayContaining(['quantitative', 'temporal']));
    expect(de.time_sensitivity).toBe('high');
    expect(de.sub_questions.some((q) => q.startsWith('Welche Zahlen'))).toBe(true);
    expect(de.search_queries[0]).toEqual({ query: 'Wie viele Einwohner hat Berlin heute?', dimension: 'core' });
    expect(de.search_queries).toContainEqual({ query: 'Berlin Bevölkerung Statistik', dimension: 'user' });
    // A question after a fact has an answer, not sides: no criticism queries spend its budget.
    expect(de.counter_evidence_queries).toEqual([]);
    expect(de.required_fields).toEqual(expect.arrayContaining(['key_facts', 'figures', 'dates']));

    const en = extractivePlan({
      query: 'Were Scott Derrickson and Ed Wood of the same nationality?',
      language: 'en',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(en.search_queries).toEqual(
      expect.arrayContaining([
        { query: 'Scott Derrickson', dimension: 'entity' },
        { query: 'Ed Wood', dimension: 'entity' },
      ]),
    );
    expect(en.required_fields).toEqual(expect.arrayContaining(['about:Scott Derrickson', 'about:Ed Wood', 'verdict']));
    // An initial ends no sentence: the name stays whole and is searched whole, as the question writes it.
    const initial = extractivePlan({
      query: 'Roger O. Egeberg served under which president?',
      language: 'en',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(initial.search_queries).toContainEqual({ query: 'Roger O. Egeberg', dimension: 'entity' });
    const title = extractivePlan({
      query: 'Which adventure did Ken St. Andre write for Tunnels and Trolls?',
      language: 'en',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(title.search_queries).toContainEqual({ query: 'Ken St. Andre', dimension: 'entity' });

    const fr = extractivePlan({
      query: "Qu'est-ce que la photosynthèse ?",
      language: 'fr',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(fr.query_categories).toContain('definition');
    expect(fr.sub_questions[0]).toMatch(/^Qu'est-ce que/);
    expect(fr.counter_evidence_queries).toEqual([]);

    // A statement to check, and a question of causes, look for what disagrees, in the run's language.
    const claim = extractivePlan({
      query: 'Le télétravail réduit la productivité',
      language: 'fr',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(claim.counter_evidence_queries.some((q) => q.includes('critique'))).toBe(true);
    const why = extractivePlan({
      query: 'Why is the sky blue?',
      language: 'en',
      extraQueries: [],
      referenceDate: reference,
    });
    expect(why.counter_evidence_queries.some((q) => q.includes('criticism'))).toBe(true);
  });

  it("searches the question, the user's queries and the names the question holds before whatever the plan's queries are", () => {
    const plan = {
      ...extractivePlan({
        query: 'Who wrote Silver Spoon for Weekly Shōnen Sunday?',
        language: 'en',
        extraQueries: [],
        referenceDate: reference,
      }),
      search_queries: [{ query: 'easy pancake recipe', dimension: 'general' }],
      counter_evidence_queries: ['weather forecast'],
    };
    expect(firstRoundQueries(plan, ['spoon history']).map((q) => [q.query, q.dimension])).toEqual([
      ['Who wrote Silver Spoon for Weekly Shōnen Sunday?', 'question'],
      ['spoon history', 'user'],
      ['Silver Spoon', 'entity'],
      ['Weekly Shōnen Sunday', 'entity'],
      ['easy pancake recipe', 'general'],
      ['weather forecast', 'counter_evidence'],
    ]);
    // A plan that searched the names already searches them once; in German only names of several words count.
    const named = { ...plan, search_queries: [{ query: 'silver spoon', dimension: 'entity' }] };
    expect(firstRoundQueries(named, []).filter((q) => q.query.toLowerCase() === 'silver spoon')).toHaveLength(1);
    const de = { ...plan, query: 'Wann wurde die Deutsche Bahn in Berlin gegründet?', language: 'de' };
    expect(
      firstRoundQueries(de, [])
        .filter((q) => q.dimension === 'entity')
        .map((q) => q.query),
    ).toEqual(['Deutsche Bahn']);
  });

  it('gives the same plan for the same query, language and reference date', () => {
    const input = { query: 'Why is the sky blue?', language: 'en', extraQueries: [], referenceDate: reference };
    expect(extractivePlan(input)).toEqual(extractivePlan(input));
  });
});

describe('the terms of a text', () => {
  it("keeps a word another language's stopwords hold where the text's own language uses it, and drops it in a phrase of that language", () => {
    // English questions: "die", "son", "war" are words of English, not the German article or the French possessive.
    expect([...termSet('Where did the director of film The Road To Denver die?')]).toContain('die');
    expect([...termSet('Who is the son of the composer?')]).toContain('son');
    expect([...termSet('In which war did he serve?')]).toContain('war');
    // A German title in an English sentence: capitalised, or beside another German stopword.
    const titled = termSet(
      'His final film as a director was "Die Jagd nach dem Glück" (in German Die Ausnahme und die Regel).',
    );
    for (const word of ['die', 'nach', 'dem', 'und']) expect([...titled]).not.toContain(word);
    expect([...titled]).toEqual(expect.arrayContaining(['final', 'film', 'jagd', 'glück', 'regel']));
    // A German sentence drops its own stopwords, "die" among them.
    const german = termSet('Die Stadt liegt an der Elbe und hat die meisten Einwohner.');
    expect([...german]).not.toContain('die');
    expect([...german]).not.toContain('der');
    expect([...german]).toContain('elbe');
  });

  it('reads a doer as the deed, "-or" as "-er", where the rest is a word of four letters or more', () => {
    const question = termSet('Who is the director of the film?');
    expect([...termSet('The film was directed by Guido Brignone.')].filter((t) => question.has(t)).sort()).toEqual([
      'direct',
      'film',
    ]);
    expect([...termSet('the editors')]).toEqual([...termSet('edited')]);
    for (const word of ['actor', 'color', 'major', 'door', 'floor']) expect([...termSet(word)]).toEqual([word]);
  });
});

describe('sentences, chunks and grounding', () => {
  it('segments German text without breaking at abbreviations', () => {
    const text = 'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller. Im Jahr 2020 wuchs sie um 1,2 Prozent.';
    expect(sentences(text, 'de').map((s) => s.text)).toEqual([
      'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller.',
      'Im Jahr 2020 wuchs sie um 1,2 Prozent.',
    ]);
  });

  it('chunks a long source into pieces within the limit that together hold all of it', async () => {
    const text = Array.from(
      { length: 300 },
      (_, i) => `Sentence number ${i} talks about topic ${i % 7} in detail.`,
    ).join(' ');
    const chunks = await chunkText(`${text}\nA short second line.`, 1000, 'en');
    expect(chunks.every((c) => c.length <= 1000)).toBe(true);
    expect(normalizeWhitespace(chunks.join(' '))).toBe(normalizeWhitespace(`${text}\nA short second line.`));
  });

  it('repairs a quote to the real passage, or refuses one that is not there', () => {
    const content = 'Intro line.\nChlorophyll absorbs mostly blue and red light, and reflects “green” light.\nEnd.';
    expect(
      groundSpan('Chlorophyll absorbs mostly blue and red light, and reflects "green" light.', content, 'en'),
    ).toBe('Chlorophyll absorbs mostly blue and red light, and reflects “green” light.');
    expect(groundSpan('chlorophyll absorbs blue and red light and reflects green light', content, 'en')).toBe(
      'Chlorophyll absorbs mostly blue and red light, and reflects “green” light.',
    );
    expect(groundSpan('The moon is made of cheese.', content, 'en')).toBeNull();
  });

  it('extracts checkable, relevant sentences as claims quoting their source verbatim', async () => {
    const content =
      'Photosynthesis converts light energy into chemical energy in plants.\nThe weather was nice that day and everyone went out.\n' +
      'Critics argue that artificial photosynthesis will not be competitive before 2040.';
    const claims = await claimsOf(content, 'How does photosynthesis convert light energy?', 'en');
    expect(claims.map((c) => c.claim_type)).toEqual(['claim', 'opinion']);
    for (const c of claims) expect(content).toContain(c.evidence_span);
  });
});

describe('claims of a text that repeats itself', () => {
  it('extracts a repeated sentence once (the same sentence twice made the claims route answer 500)', async () => {
    const text = 'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller. Im Jahr 2020 wuchs sie um 1,2 Prozent. '.repeat(
      50,
    );
    const claims = await claimsOf(text, 'Wie viele Einwohner hat die Stadt?', 'de');
    expect(claims.map((c) => c.evidence_span)).toEqual([
      'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller.',
      'Im Jahr 2020 wuchs sie um 1,2 Prozent.',
    ]);
  });
});

describe('the words a claim shows', () => {
  it('leaves out reference marks and a dateline, while its evidence span stays as the source has it', async () => {
    const text =
      'Feb. 23, 2015 -- Peanut allergies have been on the rise in the past decade.\n' +
      'In 1642, the Dutch explorer Abel Tasman became the first European to sight New Zealand.[14][15]\n' +
      'CAIRO — Peanut allergy trials in 2015 reduced allergies by more than 80 percent.[citation needed]';
    const claims = await claimsOf(
      text,
      'Do peanut allergy trials reduce allergies, and who first sighted New Zealand?',
      'en',
    );
    expect(claims.map((c) => c.claim_text)).toEqual([
      'Peanut allergies have been on the rise in the past decade.',
      'In 1642, the Dutch explorer Abel Tasman became the first European to sight New Zealand.',
      'Peanut allergy trials in 2015 reduced allergies by more than 80 percent.',
    ]);
    for (const c of claims) expect(text).toContain(c.evidence_span);
    expect(claims[1]!.evidence_span).toMatch(/\[14\]\[15\]$/);
  });

  it('keeps what only looks like a dateline or a mark', () => {
    for (const kept of ['U.S. — the country grew in 2010.', 'NASA announced it in 2010.', 'A-ha - the band sang.'])
      expect(claimTextOf(kept)).toBe(kept);
  });
});

describe('evidence scores', () => {
  const sources: SourceInput[] = [
    {
      id: 'a',
      url: 'https://www.bbc.co.uk/x',
      title: 'A',
      domain: 'bbc.co.uk',
      source_type: 'news',
      content: 'Sea level rose by 20 centimetres between 1901 and 2018 worldwide.',
      published_at: null,
    },
    {
      id: 'b',
      url: 'https://news.bbc.co.uk/y',
      title: 'B',
      domain: 'news.bbc.co.uk',
      source_type: 'news',
      content: 'Global sea level rose by 20 centimetres between 1901 and 2018.',
      published_at: null,
    },
    {
      id: 'c',
      url: 'https://ipcc.int/z',
      title: 'C',
      domain: 'ipcc.int',
      source_type: 'government',
      content: 'We measured that global sea level rose by 20 centimetres between 1901 and 2018.',
      published_at: null,
    },
    {
      id: 'd',
      url: 'https://blog.example/w',
      title: 'D',
      domain: 'blog.example',
      source_type: 'blog',
      content: 'Global sea level rose by 35 centimetres between 1901 and 2018.',
      published_at: null,
    },
  ];
  const claims: ClaimInput[] = sources.map((s, i) => ({
    id: `claim-${s.id}`,
    source_id: s.id,
    claim_text: s.content,
    evidence_span: s.content,
    claim_type: 'fact',
    confidence: 0.8,
    round: 1,
    position: i,
  }));

  it('scores every claim in [0, 1] from independence, proximity, support, contradiction, directness and date', () => {
    const scores = scoreEvidence({ claims, sources, timeSensitivity: 'low', referenceDate: reference });
    expect(scores).toHaveLength(4);
    for (const s of scores)
      for (const v of [
        s.source_independence_score,
        s.primary_source_proximity,
        s.cross_source_support,
        s.contradiction_level,
        s.evidence_directness,
        s.date_relevance_score,
      ]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    const byId = new Map(scores.map((s) => [s.claim_id, s]));
    // a and b share a registrable domain: one independence group; with c that is two groups.
    expect(registrableDomain('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(byId.get('claim-a')!.source_independence_score).toBe(0.75);
    expect(byId.get('claim-c')!.evidence_type).toBe('primary_report');
    expect(byId.get('claim-d')!.evidence_type).toBe('secondary_report');
    expect(byId.get('claim-d')!.contradiction_level).toBeGreaterThan(byId.get('claim-a')!.contradiction_level);
    expect(byId.get('claim-d')!.cross_source_support).toBe(0);
    expect(buildEvidenceGraph(claims, sources).contradictions).toHaveLength(1);
  });

  it('counts companies under a public suffix such as ltd.uk as different owners, and their subdomains as one', () => {
    const source = (id: string, host: string, content: string): SourceInput => ({
      id,
      url: `https://${host}/report`,
      title: id,
      domain: host,
      source_type: 'organization',
      content,
      published_at: null,
    });
    const owners = [
      source('acme', 'acme.ltd.uk', 'Acme shipped 400 turbines to Norway in 2023.'),
      source('acme-news', 'news.acme.ltd.uk', 'The Leeds factory doubled its output during the winter months.'),
      source('bolt', 'bolt.ltd.uk', 'Bolt opened a research centre in Glasgow with ninety engineers.'),
    ];
    const ownerClaims: ClaimInput[] = owners.map((s, i) => ({
      ...claims[0]!,
      id: `claim-${s.id}`,
      source_id: s.id,
      claim_text: s.content,
      evidence_span: s.content,
      position: i,
    }));
    const { groupOf } = buildEvidenceGraph(ownerClaims, owners);
    expect(registrableDomain('news.acme.ltd.uk')).toBe('acme.ltd.uk');
    expect(groupOf.get('acme-news')).toBe(groupOf.get('acme'));
    expect(groupOf.get('bolt')).not.toBe(groupOf.get('acme'));
  });

  it('never depends on depth: the same evidence gives identical scores whatever the run budget', async () => {
    const { compareStep, runBudgetOf } = await import('@research/pipeline');
    const { createMetrics, createSilentLogger } = await import('@research/observability');
    const snapshot = {
      plan: extractivePlan({ query: 'sea level rise', language: 'en', extraQueries: [], referenceDate: reference }),
      searchResults: [],
      sources: sources.map((s, i) => ({
        ...s,
        run_id: 'r',
        round: 1,
        position: i,
        retrieved_at: reference,
        language: 'en',
        content_sha256: null,
      })),
      claims: claims.map((c) => ({ ...c, run_id: 'r', stance: null, span_start: null, span_end: null })),
      evidence: [],
    };
    const scoresAt = (depth: 'quick' | 'normal' | 'deep') => {
      const budget = runBudgetOf({ depth, budget: null });
      return compareStep(snapshot, {
        run: { id: 'r', depth, created_at: reference, language: 'en', query: 'sea level rise' } as never,
        budget,
        round: 1,
        rounds: { quick: 1, normal: 2, deep: 3 }[depth],
        signal: new AbortController().signal,
        logger: createSilentLogger(),
        metrics: createMetrics({ defaultMetrics: false }),
        services: { llm: null, searchProvider: null as never, crawler: null as never, localCorpusDir: undefined },
        usage: budget.usage,
        notes: [],
        note: () => undefined,
        progress: () => undefined,
      });
    };
    const quick = await scoresAt('quick');
    expect(await scoresAt('normal')).toEqual(quick);
    expect(await scoresAt('deep')).toEqual(quick);
  });
});
