import { extractivePlan, reviewedQueries, revisePlan } from '@research/engine';

// What a reviewer's edit (PUT /v1/research/{id}/plan) makes of a plan: pure, no database.
describe('revisePlan', () => {
  const plan = extractivePlan({
    query: 'remote work productivity effects',
    language: 'en',
    extraQueries: [],
    referenceDate: new Date('2026-11-30T00:00:00Z'),
  });

  it('keeps a kept query’s dimension and a counter-evidence query’s kind; a new query is the user’s', () => {
    const kept = plan.search_queries[0]!;
    const counter = plan.counter_evidence_queries[0]!;
    expect(counter).toBeDefined();
    const revised = revisePlan(plan, { search_queries: [`  ${kept.query} `, 'remote work meta-analysis', counter] });
    expect(revised.search_queries).toEqual([kept, { query: 'remote work meta-analysis', dimension: 'user' }]);
    expect(revised.counter_evidence_queries).toEqual([counter]);
    expect(reviewedQueries(revised)).toEqual([kept.query, 'remote work meta-analysis', counter]);
    expect(revised.sub_questions).toEqual(plan.sub_questions);
    expect({ ...revised, search_queries: [], counter_evidence_queries: [] }).toEqual({
      ...plan,
      search_queries: [],
      counter_evidence_queries: [],
    });
  });

  it('replaces the sub-questions, drops blank items, and changes nothing for an empty revision', () => {
    const revised = revisePlan(plan, { sub_questions: ['  Which studies?  ', '   '], search_queries: [' '] });
    expect(revised.sub_questions).toEqual(['Which studies?']);
    expect(reviewedQueries(revised)).toEqual([]);
    expect(revisePlan(plan, {})).toEqual(plan);
  });
});
