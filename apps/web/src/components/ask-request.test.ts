import { researchRequestOf, splitDomains, type AskFields } from './ask-request';

const typed: AskFields = {
  query: '  How fast does solar power grow?  ',
  depth: 'quick',
  language: ' de ',
  includeDomains: '',
  excludeDomains: '',
  publishedAfter: '',
};

describe('the Ask form as a POST /v1/research body', () => {
  it('splits host lists at commas, spaces and new lines', () => {
    expect(splitDomains('destatis.de, europa.eu\n  bundesnetzagentur.de,,example.org ')).toEqual([
      'destatis.de',
      'europa.eu',
      'bundesnetzagentur.de',
      'example.org',
    ]);
    expect(splitDomains(' , \n')).toEqual([]);
  });

  it('asks for the review of the plan only when the box is ticked', () => {
    expect(researchRequestOf({ ...typed, reviewPlan: true })).toMatchObject({ review_plan: true });
    expect(researchRequestOf({ ...typed, reviewPlan: false })).not.toHaveProperty('review_plan');
  });

  it('trims the texts and leaves empty optional fields out', () => {
    expect(researchRequestOf(typed)).toEqual({
      query: 'How fast does solar power grow?',
      depth: 'quick',
      language: 'de',
    });
    expect(researchRequestOf({ ...typed, language: '  ' })).toEqual({
      query: 'How fast does solar power grow?',
      depth: 'quick',
    });
  });

  it('sends the source controls as lists and the date as typed', () => {
    expect(
      researchRequestOf({
        ...typed,
        includeDomains: 'destatis.de europa.eu',
        excludeDomains: 'blog.europa.eu',
        publishedAfter: '2024-01-01',
      }),
    ).toEqual({
      query: 'How fast does solar power grow?',
      depth: 'quick',
      language: 'de',
      include_domains: ['destatis.de', 'europa.eu'],
      exclude_domains: ['blog.europa.eu'],
      published_after: '2024-01-01',
    });
  });

  it('sends the collections ticked, and include_domains: [] for "only these collections"', () => {
    expect(researchRequestOf({ ...typed, collectionIds: ['c1', 'c2'] })).toMatchObject({
      collection_ids: ['c1', 'c2'],
    });
    expect(researchRequestOf({ ...typed, collectionIds: ['c1', 'c2'] })).not.toHaveProperty('include_domains');
    expect(researchRequestOf({ ...typed, collectionIds: ['c1'], collectionsOnly: true })).toMatchObject({
      collection_ids: ['c1'],
      include_domains: [],
    });
    // Without a collection, "only" means nothing: no empty include_domains that would read as "every host".
    const none = researchRequestOf({ ...typed, collectionIds: [], collectionsOnly: true });
    expect(none).not.toHaveProperty('collection_ids');
    expect(none).not.toHaveProperty('include_domains');
  });

  it('sends the LLM token cap as a number when one is typed, and leaves it out when empty', () => {
    expect(researchRequestOf({ ...typed, maxLlmTokens: ' 50000 ' })).toMatchObject({ max_llm_tokens: 50_000 });
    // What the API refuses is sent as typed, so its 422 says why beside the field.
    expect(researchRequestOf({ ...typed, maxLlmTokens: '0' })).toMatchObject({ max_llm_tokens: 0 });
    expect(researchRequestOf({ ...typed, maxLlmTokens: '' })).not.toHaveProperty('max_llm_tokens');
    expect(researchRequestOf({ ...typed, maxLlmTokens: '  ' })).not.toHaveProperty('max_llm_tokens');
  });
});
