import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { expectAccessible, expectNoHorizontalOverflow, screenshot } from './checks';
import { expectHeading, hashOf, signIn } from './flows';
import { createRun, startWebStack, waitForRunEnd, type WebStack } from './stack';

const PARENT = 'How does photosynthesis convert light energy in plants?';
const FOLLOW_UP = 'Which pigment in the leaves absorbs the light energy?';

// The page in Chromium against an API process and a worker: asking a follow-up under a run's report, the thread of
// a run (the run it follows up, its follow-ups), and the runs list's search.
describeWithBrowser('the web page: follow-up questions and the runs search', () => {
  let stack: WebStack;
  let browser: Browser;
  let parentId: string;
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startWebStack('web_follow'), launchBrowser()]);
    parentId = await createRun(stack, PARENT);
    expect(await waitForRunEnd(stack, parentId)).toBe('completed');
  }, 90_000);
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

  /** Screenshots at 1280 and 390 px; at 390 the page must not scroll sideways. */
  async function captureBoth(page: Page, name: string) {
    await screenshot(page, name);
    await page.setViewportSize(PHONE_390);
    try {
      await expectNoHorizontalOverflow(page);
      await screenshot(page, name);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  it('asks a follow-up under the report, opens it, and shows the thread on both runs', async () => {
    const { context, page } = await open();
    await signIn(page, stack.base, stack.userKey, `#/runs/${parentId}`);
    await expectHeading(page, PARENT);
    const box = page.getByRole('region', { name: 'Ask a follow-up' });
    await box.waitFor();
    // Under the report: the report's section comes first.
    const [reportTop, boxTop] = await Promise.all([
      page.getByRole('region', { name: 'Report' }).boundingBox(),
      box.boundingBox(),
    ]);
    expect(boxTop!.y).toBeGreaterThan(reportTop!.y);
    // A run that follows none and has none shows no thread.
    expect(await page.getByRole('region', { name: 'Thread' }).count()).toBe(0);

    // The API's refusal of a blank question stays by the box.
    await box.getByRole('button', { name: 'Ask the follow-up' }).click();
    const refused = box.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/^query: /);
    expect(hashOf(page)).toBe(`#/runs/${parentId}`);

    await box.getByLabel('Follow-up question').fill(FOLLOW_UP);
    await box.getByRole('button', { name: 'Ask the follow-up' }).click();
    await expectHeading(page, FOLLOW_UP);
    const followUpId = decodeURIComponent(hashOf(page).replace('#/runs/', ''));
    expect(followUpId).not.toBe(parentId);
    const status = await stack.call('GET', `/v1/research/${followUpId}`);
    expect(status.body).toMatchObject({ parent_id: parentId, depth: 'quick' });
    // The header names the run it follows up, as a link.
    const parentLink = page.locator('.run-parent').getByRole('link', { name: PARENT });
    await parentLink.waitFor();
    expect(await waitForRunEnd(stack, followUpId)).toBe('completed');
    await page.getByRole('region', { name: 'Ask a follow-up' }).waitFor();
    const thread = page.getByRole('region', { name: 'Thread' });
    expect(await thread.innerText()).toContain(`This run follows up ${PARENT}.`);
    await expectAccessible(page, 'a follow-up’s page');
    await captureBoth(page, 'follow-up-run');

    // The parent's page lists it among its follow-ups.
    await parentLink.click();
    await expectHeading(page, PARENT);
    const followUps = page.getByRole('region', { name: 'Thread' });
    await followUps.getByRole('link', { name: FOLLOW_UP }).waitFor();
    expect(await followUps.getByRole('heading', { level: 3 }).innerText()).toBe('Follow-ups (1 run)');
    await expectAccessible(page, 'a run with a follow-up');
    await captureBoth(page, 'follow-up-thread');
    await followUps.getByRole('link', { name: FOLLOW_UP }).click();
    await expectHeading(page, FOLLOW_UP);
    await context.close();
  });

  it('searches the runs by a word of their questions, with the search in the URL', async () => {
    const other = await createRun(stack, 'How do volcanoes compare with human activities in carbon dioxide?');
    const { context, page } = await open();
    await signIn(page, stack.base, stack.userKey, '#/runs');
    await expectHeading(page, 'Runs');
    const search = page.getByRole('search', { name: 'Runs' });
    await search.getByLabel('Search runs').fill('volcanoes');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 run matches “volcanoes”.').waitFor();
    expect(hashOf(page)).toBe('#/runs?q=volcanoes');
    expect(await page.title()).toBe('Runs matching “volcanoes” — Research');
    const table = page.getByRole('table', { name: 'Research runs' });
    expect(await table.getByRole('link').allInnerTexts()).toEqual([
      'How do volcanoes compare with human activities in carbon dioxide?',
    ]);
    await expectAccessible(page, 'the runs search');
    await captureBoth(page, 'runs-search');

    // A word none holds: the page says so, with no table.
    await search.getByLabel('Search runs').fill('zeppelin');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No run matches “zeppelin”.').waitFor();
    expect(await page.getByRole('table', { name: 'Research runs' }).count()).toBe(0);

    // The back button returns to the last search, its words in the box; "All runs" lists every run again.
    await page.goBack();
    await page.getByText('1 run matches “volcanoes”.').waitFor();
    expect(await search.getByLabel('Search runs').inputValue()).toBe('volcanoes');
    await page.getByRole('link', { name: 'All runs' }).click();
    await page.getByRole('link', { name: PARENT }).waitFor();
    expect(hashOf(page)).toBe('#/runs');
    expect(await search.getByLabel('Search runs').inputValue()).toBe('');
    await waitForRunEnd(stack, other);
    await context.close();
  });
});
