import type { ReportDocumentResponse } from '@research/http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { DESKTOP, PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { buttonsOutside, capture, expectAccessible } from './checks';
import { expectHeading, signIn } from './flows';
import { createRun, startWebStack, waitForRunEnd, type WebStack } from './stack';

const QUESTION = 'How does photosynthesis convert light energy in plants?';

/** The encyclopedia as a folder of Markdown notes, one with a space in its name (its URL escapes it). */
function writeCorpus(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-local-corpus-'));
  fs.mkdirSync(path.join(dir, 'notes'));
  for (const page of PHOTOSYNTHESIS_CORPUS) {
    const text = `---\ntitle: ${page.title}\n---\n\n${page.paragraphs.join('\n\n')}\n`;
    fs.writeFileSync(path.join(dir, 'notes', `${page.title}.md`), text);
  }
  return dir;
}

/** The file name a `local:` source's URL names, as the page shows it beside a citation. */
function fileNameOf(url: string): string {
  return decodeURIComponent(url.split('/').pop()!);
}

// A run over the `local` provider's folder: its sources are files no browser can open, so the page shows
// them in its source viewer. Then the whole page in a dark colour scheme, checked by axe as in the light one.
describeWithBrowser('the web page: local files and the dark scheme', () => {
  let corpusDir: string;
  let stack: WebStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let runId: string;

  beforeAll(async () => {
    corpusDir = writeCorpus();
    [stack, browser] = await Promise.all([startWebStack('web_local', { localCorpusDir: corpusDir }), launchBrowser()]);
    ({ context, page, watch } = await openPage(browser, [stack.userKey, stack.adminKey]));
    runId = await createRun(stack, QUESTION);
    expect(await waitForRunEnd(stack, runId, 60_000)).toBe('completed');
    await signIn(page, stack.base, stack.userKey, `#/runs/${runId}`);
  }, 90_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
    if (corpusDir) fs.rmSync(corpusDir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(watch.problems.splice(0)).toEqual([]);
  });

  it('names a local file beside its citation and opens it in the source viewer from its link', async () => {
    await expectHeading(page, QUESTION);
    const doc = (await stack.call('GET', `/v1/research/${runId}/report/document`)).body as ReportDocumentResponse;
    const source = doc.sources.find((s) => s.number !== null && s.url.startsWith('local:notes/'))!;
    expect(source).toBeDefined();
    const finding = doc.findings.find((f) => f.citations.includes(source.number!))!;
    const citation = page.locator(`#finding-${finding.number}`).getByRole('button', {
      name: `Source [${source.number}] ${fileNameOf(source.url)} – ${source.title}`,
      exact: true,
    });
    expect(await citation.locator('.citation-place').innerText()).toBe(fileNameOf(source.url));

    // In the source list the file's title is no dead link: it opens the text the run stored.
    const listed = page.locator('.source').filter({ hasText: `[${source.number}]` });
    expect(await listed.getByRole('link').count()).toBe(0);
    const title = listed.getByRole('button', { name: source.title!, exact: true });
    await title.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().innerText()).toBe(source.title);
    expect(await dialog.locator('.source-url').innerText()).toBe(
      `Local file ${decodeURIComponent(source.url.slice(6))}`,
    );
    const stored = (await stack.call('GET', `/v1/research/${runId}/sources/${source.source_id}/content`)).body
      .text as string;
    const text = dialog.getByRole('region', { name: 'Source text' });
    await dialog.getByText('Text verified against its SHA-256').waitFor();
    expect(await text.textContent()).toBe(stored);
    await capture(page, 'local-source', { phone: true });
    await expectAccessible(page, 'a local file in the source viewer');
    await page.setViewportSize(PHONE_390);
    expect(await buttonsOutside(page, dialog)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await title.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  describe('in a dark colour scheme', () => {
    beforeAll(() => page.emulateMedia({ colorScheme: 'dark' }));
    afterAll(() => page.emulateMedia({ colorScheme: 'light' }));

    it('draws the page light on dark', async () => {
      await page.goto(`${stack.base}/#/ask`);
      await expectHeading(page, 'Ask a question');
      const colours = await page.evaluate(() => {
        const style = getComputedStyle(document.body);
        return { background: getComputedStyle(document.documentElement).backgroundColor, text: style.color };
      });
      expect(colours).toEqual({ background: 'rgb(13, 17, 23)', text: 'rgb(230, 237, 243)' });
    });

    it('keeps AA contrast on the ask page, with its advanced controls and a refused field', async () => {
      await page.getByText('Advanced', { exact: true }).click();
      await capture(page, 'dark-ask', { phone: true });
      await expectAccessible(page, 'the ask page in the dark scheme');
      await page.getByLabel('Question').fill(QUESTION);
      await page.getByLabel('Include domains').fill('https://example.org/path');
      await page.getByRole('button', { name: 'Start research' }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, 'a refused field in the dark scheme');
    });

    it('keeps AA contrast on a report with its scores, and in the source viewer', async () => {
      await page.goto(`${stack.base}/#/runs/${runId}`);
      await expectHeading(page, QUESTION);
      await page.getByRole('checkbox', { name: 'Show scores' }).check();
      await page.locator('.evidence-bars').first().waitFor();
      await page.locator('details.progress-details summary').click();
      await capture(page, 'dark-run-report', { phone: true });
      await expectAccessible(page, 'the report in the dark scheme');
      await page.locator('.finding .citation').first().click();
      await page.getByRole('dialog').locator('mark').waitFor();
      await capture(page, 'dark-citation', { phone: true });
      await expectAccessible(page, 'the source viewer in the dark scheme');
      await page.keyboard.press('Escape');
    });

    it('keeps AA contrast on the sign-in page', async () => {
      const signedOut = await openPage(browser, [stack.userKey, stack.adminKey]);
      await signedOut.page.emulateMedia({ colorScheme: 'dark' });
      await signedOut.page.goto(stack.base);
      await expectHeading(signedOut.page, 'Research');
      await capture(signedOut.page, 'dark-sign-in', { phone: true });
      await expectAccessible(signedOut.page, 'the sign-in page in the dark scheme');
      expect(signedOut.watch.problems).toEqual([]);
      await signedOut.context.close();
    });

    it('keeps AA contrast on the runs list, its menu and a dialog', async () => {
      await page.goto(`${stack.base}/#/runs`);
      await expectHeading(page, 'Runs');
      const actions = page.getByRole('button', { name: `Actions: ${QUESTION}` });
      await actions.click();
      await page.getByRole('menu').waitFor();
      await capture(page, 'dark-runs-menu');
      await expectAccessible(page, 'the runs list with its menu in the dark scheme');
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete this run?' }).waitFor();
      await capture(page, 'dark-delete', { phone: true });
      await expectAccessible(page, 'the delete dialog in the dark scheme');
      await page.keyboard.press('Escape');
    });
  });
});
