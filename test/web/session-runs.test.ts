import type { Browser } from 'playwright-core';
import { client } from '../e2e/support';
import { DESKTOP, PHONE_390, describeWithBrowser, launchBrowser, openPage, type PageWatch } from './browser';
import { buttonsOutside, capture, expectAccessible, expectNoHorizontalOverflow, screenshot } from './checks';
import { hashOf, expectHeading, sessionValues, signIn } from './flows';
import { createRun, startWebStack, type WebStack } from './stack';

// The page in Chromium against an API process and a worker: signing in and out, moving between the
// places, the runs list with its paging and deletion, and the administrators' purge.
describeWithBrowser('the web page: sign in, runs, admin', () => {
  let stack: WebStack;
  let browser: Browser;
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startWebStack('web_session'), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  afterEach(() => {
    // Whatever a test did, no page may throw, break its CSP or show the key in a URL.
    const problems = watches.splice(0).flatMap((w) => w.problems);
    expect(problems).toEqual([]);
  });

  async function open(size?: { width: number; height: number }) {
    const opened = await openPage(browser, [stack.userKey, stack.adminKey], size);
    watches.push(opened.watch);
    return opened;
  }

  it('refuses a wrong key with the API’s 401 message and keeps nothing', async () => {
    const { context, page } = await open();
    const wrong = 'rs_0123456789abcdef_not-a-real-secret';
    const refused = await client(stack.base, wrong)('GET', '/v1/research?limit=1');
    expect(refused.status).toBe(401);

    await page.goto(stack.base);
    await expectHeading(page, 'Research');
    expect(await page.title()).toBe('Sign in — Research');
    // It says where a newcomer finds a key.
    const hint = await page.locator('#api-key-hint').innerText();
    expect(hint).toContain('initial-admin-key');
    expect(hint).toContain('npm run cli -- keys create <username>');
    await capture(page, 'sign-in', { phone: true });
    await expectAccessible(page, 'the sign-in page');
    await page.getByLabel('API key').fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain(refused.body.detail);
    expect(await sessionValues(page)).toEqual([]);
    await expectAccessible(page, 'the sign-in page with its error');
    await capture(page, 'sign-in-refused');
    await context.close();
  });

  it('signs in, moves between the places with the focus on their content, and signs out', async () => {
    const { context, page, watch } = await open();
    await signIn(page, stack.base, stack.userKey);
    expect(await sessionValues(page)).toContain(stack.userKey);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // A user who is not an administrator has no Admin link.
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Ask', 'Runs', 'Collections']);

    await nav.getByRole('link', { name: 'Runs' }).click();
    await expectHeading(page, 'Runs');
    expect(await page.title()).toBe('Runs — Research');
    expect(hashOf(page)).toBe('#/runs');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await nav.getByRole('link', { name: 'Ask' }).click();
    await expectHeading(page, 'Ask a question');
    expect(hashOf(page)).toBe('#/ask');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await sessionValues(page)).toEqual([]);
    // A reload stays signed out: the key is nowhere the page could find it again.
    await page.reload();
    await page.getByLabel('API key').waitFor();
    expect(watch.urls.length).toBeGreaterThan(2);
    await context.close();
  });

  it('shows administrators the Admin link, and others the API’s 403 there', async () => {
    const admin = await open();
    await signIn(admin.page, stack.base, stack.adminKey);
    const nav = admin.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Admin' }).click();
    await expectHeading(admin.page, 'Hidden runs');
    await admin.context.close();

    const user = await open();
    await signIn(user.page, stack.base, stack.userKey, '#/admin');
    const alert = user.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Administrator privileges are required.');
    await user.context.close();
  });

  describe('runs', () => {
    // Twelve runs, oldest first: the protected one lands on the second page (ten to a page, newest first).
    const QUERIES = Array.from({ length: 12 }, (_, i) => `photosynthesis light energy plants, run ${i + 1}`);
    const PROTECTED = QUERIES[0]!;
    const PASSWORD = 'correct horse battery';
    let protectedId: string;

    beforeAll(async () => {
      const ids: string[] = [];
      for (const query of QUERIES) ids.push(await createRun(stack, query));
      protectedId = ids[0]!;
      const put = await stack.call('PUT', `/v1/research/${protectedId}/deletion-protection`, { password: PASSWORD });
      expect(put.status).toBe(200);
    });

    it('lists the runs ten to a page, with links to each', async () => {
      const { context, page } = await open();
      await signIn(page, stack.base, stack.userKey, '#/runs');
      await expectHeading(page, 'Runs');
      const table = page.getByRole('table', { name: 'Research runs' });
      await table.getByRole('link', { name: QUERIES[11]! }).waitFor();
      expect(await table.locator('tbody tr').count()).toBe(10);
      expect(await page.getByText(/^Page \d+ of \d+$/).innerText()).toBe('Page 1 of 2');
      expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
      await capture(page, 'runs', { phone: true });
      await expectAccessible(page, 'the runs list');

      await page.getByRole('button', { name: 'Next page' }).click();
      await table.getByRole('link', { name: PROTECTED, exact: true }).waitFor();
      expect(hashOf(page)).toBe('#/runs?page=2');
      expect(await page.title()).toBe('Runs, page 2 — Research');
      expect(await page.getByText(/^Page \d+ of \d+$/).innerText()).toBe('Page 2 of 2');
      expect(await table.locator('tbody tr').count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      const row = table.locator('tbody tr').filter({ has: page.getByRole('link', { name: PROTECTED, exact: true }) });
      expect(await row.innerText()).toMatch(/\byes\b/);

      await table.getByRole('link', { name: PROTECTED, exact: true }).click();
      expect(hashOf(page)).toBe(`#/runs/${protectedId}`);
      await expectHeading(page, PROTECTED);
      await context.close();
    });

    it('is usable at 390 px: each run a card, its actions in a menu the keyboard works', async () => {
      const { context, page } = await open(PHONE_390);
      await signIn(page, stack.base, stack.userKey, '#/runs');
      const table = page.getByRole('table', { name: 'Research runs' });
      await table.getByRole('link', { name: QUERIES[11]! }).waitFor();
      await expectNoHorizontalOverflow(page);
      // The actions of every row are on screen, beside its query: nothing to scroll sideways to.
      const buttons = await page.getByRole('button', { name: /^Actions: / }).all();
      expect(buttons.length).toBe(10);
      for (const button of buttons) {
        const b = (await button.boundingBox())!;
        expect(b.x + b.width).toBeLessThanOrEqual(PHONE_390.width);
      }
      await screenshot(page, 'runs-narrow');

      const actions = page.getByRole('button', { name: `Actions: ${QUERIES[11]!}` });
      await actions.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: `Actions: ${QUERIES[11]!}` });
      await menu.waitFor();
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Protect from deletion', 'Delete']);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Protect from deletion');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
      const m = (await menu.boundingBox())!;
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.x + m.width).toBeLessThanOrEqual(PHONE_390.width);
      await screenshot(page, 'runs-menu');
      await expectAccessible(page, 'the runs list with a row’s menu open');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await actions.evaluate((button) => button === document.activeElement)).toBe(true);

      // An unprotected run's deletion asks no password; the dialog's buttons fit the screen.
      await actions.click();
      await menu.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Deletion-protection password').count()).toBe(0);
      expect(await buttonsOutside(page, dialog)).toEqual([]);
      await screenshot(page, 'runs-delete-narrow');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await actions.evaluate((button) => button === document.activeElement)).toBe(true);

      // The protection dialogs, with their longer labels, fit too.
      await actions.click();
      await menu.getByRole('menuitem', { name: 'Protect from deletion' }).click();
      const protect = page.getByRole('dialog', { name: 'Protect this run from deletion?' });
      await protect.waitFor();
      expect(await buttonsOutside(page, protect)).toEqual([]);
      await screenshot(page, 'runs-protect-narrow');
      await page.keyboard.press('Escape');
      await protect.waitFor({ state: 'hidden' });
      await context.close();
    });

    it('deletes a protected run only with its password, then an administrator purges it', async () => {
      const { context, page } = await open();
      await signIn(page, stack.base, stack.userKey, '#/runs?page=2');
      const actions = page.getByRole('button', { name: `Actions: ${PROTECTED}` });
      const openDelete = async () => {
        await actions.click();
        await page.getByRole('menu').getByRole('menuitem', { name: 'Delete' }).click();
      };
      // A protected run's menu offers to change or remove its password.
      await actions.click();
      expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual([
        'Change protection password',
        'Remove protection',
        'Delete',
      ]);
      await page.keyboard.press('Escape');
      // The dialog is keyboard-friendly: Escape closes it and the focus goes back to the menu's button.
      await openDelete();
      const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await actions.evaluate((button) => button === document.activeElement)).toBe(true);

      await openDelete();
      await dialog.getByLabel('Deletion-protection password').fill('not the password');
      await dialog.getByRole('button', { name: 'Delete run' }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain('A valid deletion-protection password is required.');
      await capture(page, 'runs-delete-refused', { phone: true });
      await page.setViewportSize(PHONE_390);
      expect(await buttonsOutside(page, dialog)).toEqual([]);
      await screenshot(page, 'runs-delete-refused');
      await page.setViewportSize(DESKTOP);
      await expectAccessible(page, 'the delete dialog with its error');
      expect((await stack.call('GET', `/v1/research/${protectedId}`)).status).toBe(200);

      await dialog.getByLabel('Deletion-protection password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Delete run' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('status').filter({ hasText: 'Run deleted.' }).waitFor();
      await actions.waitFor({ state: 'detached' });
      expect((await stack.call('GET', `/v1/research/${protectedId}`)).status).toBe(404);
      await context.close();

      const admin = await open();
      await signIn(admin.page, stack.base, stack.adminKey, '#/admin');
      await expectHeading(admin.page, 'Hidden runs');
      const hidden = admin.page.getByRole('table', { name: 'Hidden runs' });
      await hidden.getByText(PROTECTED).waitFor();
      await capture(admin.page, 'admin', { phone: true });
      await expectAccessible(admin.page, 'the hidden runs');
      await admin.page.getByRole('button', { name: `Purge run: ${PROTECTED}` }).click();
      const confirm = admin.page.getByRole('dialog', { name: 'Purge this run for good?' });
      await admin.page.setViewportSize(PHONE_390);
      expect(await buttonsOutside(admin.page, confirm)).toEqual([]);
      await screenshot(admin.page, 'admin-purge-narrow');
      await admin.page.setViewportSize(DESKTOP);
      await confirm.getByRole('button', { name: 'Purge run' }).click();
      await admin.page.getByRole('status').filter({ hasText: 'Run purged.' }).waitFor();
      await hidden.getByText(PROTECTED).waitFor({ state: 'detached' });
      const list = await client(stack.base, stack.adminKey)('GET', '/v1/admin/research/deleted');
      expect(list.body.map((r: { research_id: string }) => r.research_id)).not.toContain(protectedId);
      await admin.context.close();
    });
  });
});
