import { extractClaims, isStatement, nonStatementReason, sentences, statementCheck, termSet } from '@research/engine';

describe('statements a claim may rest on', () => {
  it.each([
    ['fragment', 'Waterfront along Auckland CBD, a major hub of economic activity'],
    ['fragment', 'Each thread within an Executor process follows this simple loop:'],
    ['question', 'How does the brain turn unconscious information into conscious thought?'],
    ['question', '¿Por qué los hombres tienen más probabilidades de morir por COVID-19?'],
    ['heading', 'Managing Critical State: Distributed Consensus for Reliability.'],
    ['heading', 'THE BEST STORIES OF THE WEEK, CHOSEN BY OUR EDITORS.'],
    ['navigation', 'Africa|United States to Lift Sudan Sanctions'],
    ['navigation', 'Order Reprints | Today’s Paper | Subscribe'],
    ['navigation', 'Home » World » Africa » Sudan news of the day.'],
    ['navigation', 'Kim Taylor-Foster • February 17, 2017'],
    ['site', 'By using this site, you agree to the User Agreement and Privacy Policy.'],
    ['site', 'Your email address will not be published.'],
    ['site', 'You must be logged in to leave a comment.'],
    ['site', '© 2022 The New York Times Company.'],
    ['site', 'Wikipedia® is a registered trademark of the Wikimedia Foundation, Inc., a non-profit organization.'],
    ['site', 'This material may not be published, broadcast, rewritten or redistributed.'],
    ['site', 'Get unlimited access to the best stories on Medium and support writers while you are at it.'],
    [
      'publication',
      'A version of this article appears in print on January 13, 2017, on Page A7 of the New York edition.',
    ],
    ['publication', 'This article was originally published on The Conversation.'],
    ['publication', 'Last updated on Sep 21, 2017.'],
    ['publication', 'By Jane Doe, staff writer.'],
    ['publication', 'By Jane Doe and John Smith, staff writers for The Washington Post.'],
    ['publication', 'Von Anna Schmidt, Redakteurin.'],
    ['reference', 'Proceedings of the National Academy of Sciences. 108 (5): 1815–1820.'],
    ['reference', 'Smith, J. A.; Jones, B. (2010). "Coffee and the heart". Journal of Cardiology.'],
    ['reference', 'Smith, J. A., & Jones, B. (2010). Coffee and the heart. Journal of Cardiology, 12(3), 45–67.'],
    ['reference', 'Archived from the original on 28 February 2015.'],
    ['reference', 'Retrieved 9 October 2018.'],
    ['reference', 'Bibcode:2011PNAS..108.1815W. doi:10.1073/pnas.1015876108.'],
    ['markup', 'A Hermitian matrix satisfies {\\displaystyle A=A^{\\mathsf {H}}} by definition.'],
    ['markup', 'campaign: abtest_bar1_pricing_inyt_1116, creative: abtest_pricing_inyt_1116_bar1_ad, page: www.'],
  ] as const)('reads a %s as no statement: %s', (reason, text) => {
    expect(nonStatementReason(text)).toBe(reason);
  });

  it.each([
    'In exchange for the lifting of United States trade sanctions, Sudan has said it will improve access for aid groups.',
    'A 2015 study by Jones et al. found that coffee drinkers had a lower risk of heart disease.',
    'The study was published in the Proceedings of the National Academy of Sciences in 2011.',
    'Facebook changed its privacy policy in 2018 after the Cambridge Analytica scandal.',
    'Its source code is licensed under the Mozilla Public License.',
    '“People think it’s all protected and safe, but it’s really not,” said Patrick McHugh.',
    'Le dispositif introduit une forme de « pêche au chalut » – un brassage très large des données.',
    'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller.',
    '国际空间站禁止享用啤酒等有大量泡沫的饮料。',
    'The savings add up to 6 petabytes of user data saved per day!',
    'By Monday, the storm had moved east.',
    "By New Year's Eve, the city had run out of fireworks.",
    'By John Smith’s own account, the deal closed in 2014.',
    'He is also Professor-at-Large at the Keck Graduate Institute for Applied Life Sciences in Clarmont, California.',
    'He was a past editor of the "Journal of Research and Personality" and of the "Journal of Personality".',
  ])('keeps prose as a statement: %s', (text) => {
    expect(isStatement(text)).toBe(true);
  });

  it('lets a quote a model copied end without its stop, but not be a heading or a notice', () => {
    expect(isStatement('Sudan has said it will improve access for aid groups', { quoted: true })).toBe(true);
    expect(isStatement('Sudan has said it will improve access for aid groups')).toBe(false);
    expect(nonStatementReason('Sanctions on Sudan Will Be Lifted', { quoted: true })).toBe('heading');
    expect(nonStatementReason('Your email address will not be published', { quoted: true })).toBe('site');
  });

  it('judges a reference entry by its whole line, which the sentence splitter cuts into pieces', () => {
    const text = [
      'Sea level rose by 20 centimetres between 1901 and 2018, the report found.',
      '^ Kirby, Alex (January 2005). "More and more students wear school sports colours". BBC News.',
    ].join('\n');
    const check = statementCheck(text);
    const found = sentences(text, 'en').map((s) => [s.text, check(s.text, s.start)]);
    expect(found[0]).toEqual([expect.stringMatching(/^Sea level rose/), null]);
    const title = found.find(([s]) => String(s).startsWith('"More and more'));
    expect(title?.[1]).toBe('reference');
    // A paragraph of prose quoting titles with their years is no reference entry.
    const prose =
      'Gumbo is the fourth studio album by PJ Morton. It was released in 2017 as the follow-up to his album ' +
      '"New Orleans" (2013). The album features a cover of the Bee Gees\' "How Deep Is Your Love". It was ' +
      'recorded in New Orleans over six months.';
    const checkProse = statementCheck(prose);
    expect(sentences(prose, 'en').map((s) => checkProse(s.text, s.start))).toEqual([null, null, null, null]);
  });

  it('extracts claims from a page only where it makes statements', async () => {
    const page = [
      'Skip to content | Home | World | Africa',
      'Africa|United States to Lift Sudan Sanctions',
      'United States to Lift Sudan Sanctions',
      'In exchange for the lifting of United States trade sanctions, Sudan has said it will improve access for aid groups. Sudan will also cooperate with American intelligence agents, officials said.',
      'A version of this article appears in print on January 13, 2017, on Page A7 of the New York edition with the headline: Sanctions on Sudan Will Be Lifted.',
      'Sanctions on Sudan (PDF). Proceedings of the National Academy of Sciences. 108 (5): 1815–1820.',
      'By continuing to use this site, you agree to our use of cookies and to the User Agreement.',
      '© 2017 The New York Times Company. All rights reserved.',
    ].join('\n');
    const claims = await extractClaims({
      runId: 'run',
      sourceId: 'source',
      text: page,
      language: 'en',
      terms: { query: termSet('Why did the United States lift sanctions on Sudan?', false), plan: new Set() },
      limit: 20,
    });
    expect(claims.map((c) => c.evidence_span)).toEqual([
      'In exchange for the lifting of United States trade sanctions, Sudan has said it will improve access for aid groups.',
      'Sudan will also cooperate with American intelligence agents, officials said.',
    ]);
  });
});
