import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SKIP_PREFIXES, dataRequired, describeByPlan, planSuite, type DataLookup } from '../support/data-dir';

/** Debian's chromium unless CHROMIUM_PATH names another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

// No network of its own (updates, sync, field trials), no GPU, no sandbox (containers run the tests as root).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function findChromium(): DataLookup {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    return { found: true, dir: CHROMIUM_PATH };
  } catch {
    return {
      found: false,
      reason: `no browser at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH; .ci/run installs it)`,
    };
  }
}

/**
 * A describe block that drives the page in Chromium: skipped with the reason on a machine without it, and
 * failing without it where it must run (RESEARCH_DATA_REQUIRED, as for other tools, or CI).
 */
export function describeWithBrowser(title: string, body: () => void): void {
  const required = dataRequired() || Boolean(process.env.CI?.trim());
  const plan = planSuite(findChromium(), required ? { RESEARCH_DATA_REQUIRED: '1' } : {});
  describeByPlan(title, plan, () => body(), SKIP_PREFIXES.tool);
}

/**
 * A headless Chromium. Playwright gives it a new empty profile in a temporary folder of its own, deleted on
 * close, and each context is a fresh incognito-like session on top: no state survives between files.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };
/** A common phone's viewport, where the runs list, its menu and the dialogs are checked as well. */
export const PHONE_390 = { width: 390, height: 844 };

/**
 * What a page did wrong while a test drove it: uncaught errors, refused loads (the page's CSP), and any
 * URL, of the page or of a request it made, that holds the API key.
 */
export interface PageWatch {
  readonly problems: string[];
  /** Every URL the tab showed, in order. */
  readonly urls: string[];
  readonly requests: string[];
}

/** A fresh context and tab at `size`, watched for the problems of PageWatch (keys: those never to leak). */
export async function openPage(
  browser: Browser,
  keys: string[],
  size = DESKTOP,
): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: size, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const watch: PageWatch = { problems: [], urls: [], requests: [] };
  const leaks = (url: string) => keys.some((key) => url.includes(key) || url.includes(encodeURIComponent(key)));
  page.on('pageerror', (error) => watch.problems.push(`uncaught error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) watch.problems.push(`CSP: ${message.text()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    watch.urls.push(frame.url());
    if (leaks(frame.url())) watch.problems.push(`the key is in the page's URL: ${frame.url()}`);
  });
  page.on('request', (request) => {
    watch.requests.push(request.url());
    if (leaks(request.url())) watch.problems.push(`the key is in a request URL: ${request.url()}`);
  });
  return { context, page, watch };
}
