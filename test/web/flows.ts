import { RUN_STATES, TERMINAL_STATES } from '@research/core';
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../support/wait';

/**
 * Opens the page at `hash` and signs in with `key`; resolves once the signed-in header shows and the page
 * has asked whether the key is an administrator's (so the Admin link is settled).
 */
export async function signIn(page: Page, base: string, key: string, hash = ''): Promise<void> {
  await page.goto(`${base}/${hash}`);
  await page.getByLabel('API key').fill(key);
  const adminProbe = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/admin/research/deleted');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await adminProbe;
}

/** Every value the tab keeps in its session storage. */
export function sessionValues(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(sessionStorage).map((k) => sessionStorage.getItem(k) ?? ''));
}

/**
 * Waits until the page's one h1 reads `text` (a page may show a placeholder heading while it loads); fails
 * naming the heading it shows instead.
 */
export async function expectHeading(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  const h1 = page.getByRole('heading', { level: 1 });
  await waitFor(
    `the heading "${text}"`,
    async () => (await h1.allInnerTexts()).map((t) => t.trim()).join(' | ') === text,
    timeoutMs,
    50,
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}; the page's h1: ${JSON.stringify(await h1.allInnerTexts())}`);
  });
}

/** The hash of the tab's URL (`#/runs/…`). */
export function hashOf(page: Page): string {
  return new URL(page.url()).hash;
}

/**
 * The run page's state badge: the first element of the page whose whole text is a state (it stands by the
 * heading, before the progress log, whose entries say more than the state's name).
 */
export function stateBadge(page: Page): Locator {
  return page
    .getByRole('main')
    .getByText(new RegExp(`^(${RUN_STATES.join('|')})$`))
    .first();
}

/** What the run page showed while the run went on: its state and the progress log's length, sampled. */
export interface RunWatch {
  samples: { state: string; events: number }[];
  finalState: string;
}

/** Samples the badge and the log every 50 ms until the badge shows a final state. */
export async function watchRunToEnd(page: Page, timeoutMs = 30_000): Promise<RunWatch> {
  const log = page.getByRole('log', { name: 'Progress events' });
  const samples: RunWatch['samples'] = [];
  const finalState = await waitFor(
    'the run page to show a final state',
    async () => {
      const state = ((await stateBadge(page).textContent({ timeout: 1_000 })) ?? '').trim();
      samples.push({ state, events: await log.getByRole('listitem').count() });
      return (TERMINAL_STATES as readonly string[]).includes(state) ? state : undefined;
    },
    timeoutMs,
    50,
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}; the log shows:\n${await log.innerText().catch(() => '(no log)')}`);
  });
  return { samples, finalState };
}
