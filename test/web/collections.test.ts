import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PLANTED_QUERY } from '../engine/engine-support';
import { DESKTOP, PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { buttonsOutside, capture, expectAccessible, expectNoHorizontalOverflow, screenshot } from './checks';
import { expectHeading, hashOf, signIn, watchRunToEnd } from './flows';
import { startWebStack, type WebStack } from './stack';

// The Collections pages in Chromium against an API process and a worker: create a collection, upload a document,
// search it, ask a question that searches only the collection (the Ask form's choice), and open the collection
// document the report cites in the source viewer.

const NOTE =
  'Harbour survey notes\n\nThe harbour survey of 2024 found that human activities emit about 37 billion tons of ' +
  'carbon dioxide per year, while volcanoes emit less than one billion tons of carbon dioxide per year.';

/** Screenshots at 1280 and 390 px, where the page must not scroll sideways. */
async function captureBoth(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await page.setViewportSize(PHONE_390);
  try {
    await expectNoHorizontalOverflow(page);
    await screenshot(page, name);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

describeWithBrowser('the web page: collections', () => {
  let stack: WebStack;
  let browser: Browser;
  let dir: string;
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-collections-'));
    fs.writeFileSync(path.join(dir, 'harbour-survey.txt'), NOTE);
    fs.writeFileSync(path.join(dir, 'tool.exe'), 'MZ');
    [stack, browser] = await Promise.all([startWebStack('web_collections'), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    const problems = watches.splice(0).flatMap((w) => w.problems);
    expect(problems).toEqual([]);
  });

  it('creates a collection, uploads and searches a document, and a run over it cites it in the source viewer', async () => {
    const { context, page, watch } = await openPage(browser, [stack.userKey]);
    watches.push(watch);
    await signIn(page, stack.base, stack.userKey);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Collections' }).click();
    await expectHeading(page, 'Collections');
    expect(hashOf(page)).toBe('#/collections');
    await page.getByText('No collections yet.').waitFor();

    await page.getByLabel('Name').fill('Harbour surveys');
    await page.getByLabel('Language of its documents').selectOption('en');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await expectHeading(page, 'Harbour surveys');
    expect(hashOf(page)).toMatch(/^#\/collections\/[0-9a-f-]{36}$/);
    const collectionId = hashOf(page).split('/')[2]!;

    // A file the API refuses: its 422 is shown as the API words it, and nothing is added.
    await page.getByLabel(/^File/).setInputFiles(path.join(dir, 'tool.exe'));
    await page.getByRole('button', { name: 'Upload' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/^file: must be a PDF, HTML, Markdown or plain text file/);

    await page.getByLabel(/^File/).setInputFiles(path.join(dir, 'harbour-survey.txt'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('“Harbour survey notes” added.').waitFor();
    const documents = page.getByRole('region', { name: 'Files in this collection' });
    await documents.getByText('harbour-survey.txt').waitFor();
    const stored = (await stack.call('GET', `/v1/collections/${collectionId}/documents`)).body.items[0];
    expect(await documents.locator('code').getAttribute('title')).toBe(stored.content_sha256);

    await page.getByLabel('Search this collection').fill('volcanoes emitting');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByText('Found for “volcanoes emitting”').waitFor();
    expect(await results.locator('li').count()).toBe(1);
    expect(await results.locator('li p').innerText()).toContain('volcanoes emit');
    await captureBoth(page, 'collection');
    await expectAccessible(page, 'a collection with its documents and a search');

    // The Ask form offers the collection; ticked with "only these collections", the run never reaches the web.
    await nav.getByRole('link', { name: 'Ask' }).click();
    await expectHeading(page, 'Ask a question');
    await page.getByLabel('Question').fill(PLANTED_QUERY);
    await page.getByText(/^Advanced/).click();
    await page.getByRole('checkbox', { name: /Harbour surveys/ }).check();
    await page.getByRole('checkbox', { name: 'Only these collections, not the web' }).check();
    await captureBoth(page, 'ask-collections');
    await expectAccessible(page, 'the Ask form with its collections');
    const webQueries = stack.web.requests.queries.length;
    await page.getByRole('button', { name: 'Start research' }).click();
    await page.waitForURL(/#\/runs\//);
    const runId = hashOf(page).split('/')[2]!;
    expect((await watchRunToEnd(page)).finalState).toBe('completed');
    expect(stack.web.requests.queries.length).toBe(webQueries);

    const sources = (await stack.call('GET', `/v1/research/${runId}/sources`)).body.sources as Array<{
      id: string;
      url: string;
      title: string;
    }>;
    expect(sources.map((s) => s.url)).toEqual([`collection://${collectionId}/${stored.document_id}`]);
    const listed = page.locator('.source').filter({ hasText: sources[0]!.title });
    expect(await listed.getByRole('link').count()).toBe(0);
    await listed.getByRole('button', { name: sources[0]!.title, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByText('Text verified against its SHA-256').waitFor();
    expect(await dialog.locator('.source-url').innerText()).toBe(`Collection document ${sources[0]!.url}`);
    expect(await dialog.locator('.source-url a').getAttribute('href')).toBe(`#/collections/${collectionId}`);
    const text = await dialog.getByRole('region', { name: 'Source text' }).textContent();
    const content = (await stack.call('GET', `/v1/research/${runId}/sources/${sources[0]!.id}/content`)).body;
    expect(text).toBe(content.text);
    expect(content.content_sha256).toBe(stored.content_sha256);
    await capture(page, 'collection-source');
    await page.setViewportSize(PHONE_390);
    await screenshot(page, 'collection-source');
    expect(await buttonsOutside(page, dialog)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, 'a collection document in the source viewer');
    await page.keyboard.press('Escape');
    await context.close();
  });
});
