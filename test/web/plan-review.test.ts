import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { expectAccessible, expectNoHorizontalOverflow, screenshot } from './checks';
import { expectHeading, signIn, stateBadge, watchRunToEnd } from './flows';
import { startWebStack, waitForRunEnd, type WebStack } from './stack';
import { waitFor } from '../support/wait';

const QUESTION = 'photosynthesis light energy plants';
const EDITED_QUERY = 'chlorophyll absorbs red and blue light';

// Plan review in Chromium against an API process and a worker: the Ask form's checkbox, the plan a waiting
// run shows with its editable lists, saving, approving, and stopping a run that waits.
describeWithBrowser('the web page: plan review', () => {
  let stack: WebStack;
  let browser: Browser;
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startWebStack('web_review'), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  afterEach(() => {
    const problems = watches.splice(0).flatMap((w) => w.problems);
    expect(problems).toEqual([]);
  });

  async function open() {
    const opened = await openPage(browser, [stack.userKey, stack.adminKey]);
    watches.push(opened.watch);
    return opened;
  }

  /** The run page's id, from its URL (`#/runs/<id>`). */
  const runIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');

  /** Screenshots at 1280 and 390 px, with no sideways scrolling at 390. */
  async function shoot(page: Page, name: string) {
    await screenshot(page, name);
    await page.setViewportSize(PHONE_390);
    try {
      await expectNoHorizontalOverflow(page);
      await screenshot(page, name);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  it('asks with "Review the plan before searching", shows the plan to edit, saves and approves it', async () => {
    const { context, page } = await open();
    await signIn(page, stack.base, stack.userKey, '#/ask');
    await expectHeading(page, 'Ask a question');
    await page.getByLabel('Question').fill(QUESTION);
    await page.getByLabel('Depth').selectOption('quick');
    const review = page.getByLabel('Review the plan before searching');
    expect(await review.isChecked()).toBe(false);
    await review.check();
    await shoot(page, 'ask-review-plan');
    await page.getByRole('button', { name: 'Start research' }).click();

    await page.getByRole('heading', { name: 'Review the plan' }).waitFor({ timeout: 30_000 });
    const id = runIdOf(page);
    const status = await stack.call('GET', `/v1/research/${id}`);
    expect(status.body.state).toBe('awaiting_review');
    expect(await stateBadge(page).innerText()).toBe('awaiting_review');
    expect(await page.locator('#step-text').innerText()).toBe('Step 1 of 6: Plan ready, waiting for your review');
    const searchedBefore = stack.web.requests.queries.length;

    // The lists hold the stored plan, one item a line.
    const plan = (await stack.call('GET', `/v1/research/${id}/plan`)).body.plan;
    const queries = page.getByLabel('Search queries');
    const subQuestions = page.getByLabel('Sub-questions');
    const planned = [...plan.search_queries.map((q: any) => q.query), ...plan.counter_evidence_queries];
    expect(await queries.inputValue()).toBe(planned.join('\n'));
    expect(await subQuestions.inputValue()).toBe(plan.sub_questions.join('\n'));
    expect(await page.getByRole('log', { name: 'Progress events' }).innerText()).toContain(
      'The plan waits for your review',
    );
    const save = page.getByRole('button', { name: 'Save changes' });
    expect(await save.isDisabled()).toBe(true);
    await expectAccessible(page, 'a run awaiting review');
    await shoot(page, 'run-awaiting-review');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'a run awaiting review, in the dark scheme');
    await screenshot(page, 'run-awaiting-review-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await queries.fill(`${EDITED_QUERY}\n\n`);
    await subQuestions.fill('Which pigment absorbs the light?');
    await save.click();
    await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
    const saved = (await stack.call('GET', `/v1/research/${id}/plan`)).body.plan;
    expect(saved.search_queries).toEqual([{ query: EDITED_QUERY, dimension: 'user' }]);
    expect(saved.sub_questions).toEqual(['Which pigment absorbs the light?']);
    // Nothing was searched while the run waited.
    expect(stack.web.requests.queries.length).toBe(searchedBefore);

    await page.getByRole('button', { name: 'Approve and search' }).click();
    const watched = await watchRunToEnd(page);
    expect(watched.finalState).toBe('completed');
    expect(stack.web.requests.queries.slice(searchedBefore)).toContain(EDITED_QUERY);
    expect(await page.getByRole('heading', { name: 'Review the plan' }).count()).toBe(0);
    // The ended run's event log is folded under the report: unfold it.
    await page.locator('summary', { hasText: 'Event log' }).click();
    const log = await page.getByRole('log', { name: 'Progress events' }).innerText();
    expect(log).toContain('Plan edited: 1 query, 1 sub-question');
    expect(log).toContain('Plan approved');
    await context.close();
  }, 90_000);

  it('shows the API’s refusal of a list too long, and Stop research ends a run that waits', async () => {
    const created = await stack.call('POST', '/v1/research', {
      query: QUESTION,
      depth: 'quick',
      language: 'en',
      review_plan: true,
    });
    const id = created.body.research_id as string;
    const { context, page } = await open();
    await signIn(page, stack.base, stack.userKey, `#/runs/${id}`);
    await page.getByRole('heading', { name: 'Review the plan' }).waitFor({ timeout: 30_000 });

    await page.getByLabel('Search queries').fill(Array.from({ length: 21 }, (_, i) => `query ${i + 1}`).join('\n'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('search_queries: must have at most 20 items');
    await shoot(page, 'run-review-refused');

    await page.getByRole('button', { name: 'Stop research' }).click();
    await waitFor('the badge to show cancelled', async () => (await stateBadge(page).innerText()) === 'cancelled');
    expect(await waitForRunEnd(stack, id)).toBe('cancelled');
    expect(await page.getByRole('heading', { name: 'Review the plan' }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
