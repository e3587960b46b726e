import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ROOT } from '../e2e/support';
import { DESKTOP, PHONE } from './browser';

/** Where the tests leave their screenshots (ignored by git). */
export const RESULTS_DIR = path.join(ROOT, 'test-results');

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Writes `test-results/<name>-<width>.png` of the whole page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}-${width}.png`), fullPage: true });
}

/** The elements reaching past the right edge of the viewport, to name in a failure. */
async function overflowing(page: Page): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      if (element.getBoundingClientRect().right <= root.clientWidth + 0.5) continue;
      // Inside a scroll wrapper of its own a wide element is fine: only the outermost one counts.
      const parent = element.parentElement;
      if (parent && parent.getBoundingClientRect().right > root.clientWidth + 0.5) continue;
      const id = element.id ? `#${element.id}` : '';
      const classes = typeof element.className === 'string' && element.className ? `.${element.className}` : '';
      culprits.push(`${element.tagName.toLowerCase()}${id}${classes.replace(/\s+/g, '.')}`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: culprits.slice(0, 10) };
  });
}

/** The page scrolls only vertically at its current width (the 360 px rule of the UI contract). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const found = await overflowing(page);
  if (found.scrollWidth > found.clientWidth) {
    throw new Error(
      `the page is ${found.scrollWidth} px wide in a ${found.clientWidth} px viewport; too wide: ${found.culprits.join(', ')}`,
    );
  }
}

/**
 * Screenshots at desktop width and, for `phone`, at 360 px too, where the page must not scroll sideways;
 * the viewport is back at desktop width afterwards.
 */
export async function capture(page: Page, name: string, options: { phone?: boolean } = {}): Promise<void> {
  await screenshot(page, name);
  if (!options.phone) return;
  await page.setViewportSize(PHONE);
  try {
    await expectNoHorizontalOverflow(page);
    await screenshot(page, name);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

/** The buttons of `dialog` that reach past its edges or the viewport's, to name in a failure. */
export async function buttonsOutside(page: Page, dialog: Locator): Promise<string[]> {
  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  const outside: string[] = [];
  for (const button of await dialog.getByRole('button').all()) {
    const b = (await button.boundingBox())!;
    const inDialog = b.x >= box.x && b.x + b.width <= box.x + box.width + 0.5;
    const inViewport = b.x >= 0 && b.x + b.width <= viewport.width + 0.5;
    if (!inDialog || !inViewport) outside.push(`${await button.innerText()} at ${b.x}..${b.x + b.width}`);
  }
  return outside;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation, listing them. The
 * page's CSP (script-src 'self') refuses an inline script tag, so axe's source is evaluated through the
 * DevTools protocol, which the CSP does not govern; the page keeps its real policy for everything else.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    })))`,
  )) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length > 0) {
    const list = serious.map(
      (v) =>
        `- ${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`)
          .join('\n'),
    );
    throw new Error(`axe finds ${serious.length} serious or critical violation(s) on ${what}:\n${list.join('\n')}`);
  }
}

/**
 * Adds to every document of the context an observer summing its layout shifts not caused by recent input
 * (buffered, so shifts before the observer ran count too). The sum over the whole measured span is stricter
 * than CLS's largest 5-second window.
 */
export async function observeLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(`
    window.__layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.__layoutShifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          sources: (entry.sources || []).map((s) => s.node ? (s.node.nodeName + (s.node.className ? '.' + s.node.className : '')) : '?'),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  `);
}

export interface LayoutShifts {
  total: number;
  shifts: { value: number; at: number; sources: string[] }[];
}

/** Forgets the shifts so far: what follows is measured on its own. */
export async function resetLayoutShifts(page: Page): Promise<void> {
  await page.evaluate('window.__layoutShifts.length = 0');
}

export async function layoutShifts(page: Page): Promise<LayoutShifts> {
  const shifts = (await page.evaluate('window.__layoutShifts')) as LayoutShifts['shifts'];
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}
