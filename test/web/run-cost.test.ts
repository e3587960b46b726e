import type { Browser, Page } from 'playwright-core';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';
import { PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { capture, expectAccessible, expectNoHorizontalOverflow, screenshot } from './checks';
import { expectHeading, hashOf, signIn } from './flows';
import { startWebStack, waitForRunEnd, type WebStack } from './stack';

const QUESTION = 'How does photosynthesis convert light energy in plants?';
// Pages and the model answer after a while, so a quick run takes a few seconds and the page sees it spend.
const PAGE_LATENCY_MS = 250;

/** The estimate under the depth, once it reads `pattern`. */
async function estimateReading(page: Page, pattern: RegExp): Promise<string> {
  const estimate = page.locator('.depth-estimate');
  await page.waitForFunction(
    ([source, flags]) => new RegExp(source!, flags).test(document.querySelector('.depth-estimate')?.textContent ?? ''),
    [pattern.source, pattern.flags],
  );
  return estimate.innerText();
}

/** Screenshots at 1280 px (the page's size) and at a 390 px phone, where nothing may scroll sideways. */
async function captureWide(page: Page, name: string): Promise<void> {
  await capture(page, name);
  const size = page.viewportSize()!;
  await page.setViewportSize(PHONE_390);
  try {
    await expectNoHorizontalOverflow(page);
    await screenshot(page, name);
  } finally {
    await page.setViewportSize(size);
  }
}

// The page in Chromium against an API process and a worker using the fake LLM, with LLM prices set: the Ask
// page's estimate for the chosen depth, and the run page's cost as the run spends.
describeWithBrowser('the web page: what a run costs', () => {
  let stack: WebStack;
  let llm: FakeLlm;
  let browser: Browser;
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    llm = await startFakeLlm({ latencyMs: 100 });
    [stack, browser] = await Promise.all([
      startWebStack('web_cost', {
        pageLatencyMs: PAGE_LATENCY_MS,
        env: {
          LLM_BASE_URL: llm.baseUrl,
          LLM_MODEL: 'fake-model',
          LLM_PRICE_INPUT_PER_MTOK: '2.5',
          LLM_PRICE_OUTPUT_PER_MTOK: '10',
        },
      }),
      launchBrowser(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await llm?.close();
  });
  afterEach(() => {
    const problems = watches.splice(0).flatMap((w) => w.problems);
    expect(problems).toEqual([]);
  });

  async function open() {
    const opened = await openPage(browser, [stack.userKey, stack.adminKey]);
    watches.push(opened.watch);
    await signIn(opened.page, stack.base, stack.userKey, '#/ask');
    await expectHeading(opened.page, 'Ask a question');
    return opened;
  }

  it('shows under the depth the most its budget allows while no run of it has finished, and follows the choice', async () => {
    const { context, page } = await open();
    const normal = await estimateReading(page, /normal/);
    expect(normal).toBe(
      'No normal run has finished here yet. Its budget allows at most 30 LLM calls (180,000 tokens in, 30,000 out, about $0.7500), 20 search queries and 30 pages, in 1:00:00.',
    );
    await page.getByLabel('Depth').selectOption('quick');
    expect(await estimateReading(page, /quick/)).toMatch(/^No quick run has finished here yet\. .*15 LLM calls/);
    await expectAccessible(page, 'the ask page with its estimate');
    await captureWide(page, 'ask-estimate');
    await context.close();
  });

  it('shows what the run spent while it runs and, at its end, what the API counted', async () => {
    const { context, page } = await open();
    await page.getByLabel('Depth').selectOption('quick');
    await page.getByLabel('Question').fill(QUESTION);
    await page.getByLabel('Question').press('Enter');
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}$/);
    const runId = hashOf(page).slice('#/runs/'.length);
    await expectHeading(page, QUESTION);
    // The plan's LLM call is committed before the search: the line counts it while the stop button is still there.
    await page.waitForFunction(() => {
      const spent = document.querySelector('.run-cost')?.textContent ?? '';
      const running = [...document.querySelectorAll('button')].some((b) => b.textContent === 'Stop research');
      return running && /Spent: [1-9]\d* LLM calls? · /.test(spent) && /about \$/.test(spent);
    });
    await captureWide(page, 'run-cost-running');

    expect(await waitForRunEnd(stack, runId)).toBe('completed');
    const { cost } = (await stack.call('GET', `/v1/research/${runId}`)).body;
    expect(cost.llm_requests).toBeGreaterThan(1);
    const fmt = (n: number) => n.toLocaleString('en-US');
    const expected =
      `Spent: ${fmt(cost.llm_requests)} LLM calls · ${fmt(cost.llm_tokens_input)} tokens in, ` +
      `${fmt(cost.llm_tokens_output)} out · ${fmt(cost.search_queries)} search queries · ` +
      `${fmt(cost.pages_fetched)} pages · about $${cost.estimated_cost_usd.toFixed(4)}`;
    await page.waitForFunction((text) => document.querySelector('.run-cost')?.textContent === text, expected);
    await page.getByRole('heading', { name: 'Findings' }).waitFor();
    await expectAccessible(page, 'the run page with its cost');
    await captureWide(page, 'run-cost-ended');

    // Back on the Ask page, the quick estimate now rests on that run.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ask' }).click();
    await page.getByLabel('Depth').selectOption('quick');
    const estimate = await estimateReading(page, /last quick run/);
    expect(estimate).toContain(`A quick run usually takes ${fmt(cost.llm_requests)} LLM calls`);
    expect(estimate).toContain(`${fmt(cost.search_queries)} search queries and ${fmt(cost.pages_fetched)} pages`);
    await context.close();
  });
});
