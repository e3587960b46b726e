import { sql } from 'kysely';
import { loadConfig } from '@research/core';
import { upsertCachedPage } from '@research/crawler';
import { createProcessResearchServices, openServices, type Services } from '@research/runtime';
import { createTestDatabase, type TestDatabase } from '../support/database';

describe('the process engine', () => {
  let t: TestDatabase;
  let services: Services;
  beforeAll(async () => {
    t = await createTestDatabase('sweep');
    services = await openServices(loadConfig({ DATABASE_URL: t.url, LOG_LEVEL: 'error' }), 'worker');
  });
  afterAll(async () => {
    await services.close();
    await t.drop();
  });

  it('drops expired pages from the crawler cache and keeps fresh ones', async () => {
    const now = Date.now();
    const page = (url: string, expiresInMs: number) =>
      upsertCachedPage(services.db, {
        url,
        finalUrl: url,
        contentType: 'text/html',
        document: { title: url, content: 'Some cached text of the page.' } as never,
        byteSize: 100,
        fetchedAt: new Date(now - 1000),
        expiresAt: new Date(now + expiresInMs),
      });
    await page('https://example.org/old', -1000);
    await page('https://example.org/older', -86_400_000);
    await page('https://example.org/fresh', 3_600_000);
    const processResearch = createProcessResearchServices(services);
    try {
      await processResearch.sweepPageCache();
    } finally {
      await processResearch.close();
    }
    const { rows } = await sql<{ url: string }>`select url from page_cache order by url`.execute(services.db);
    expect(rows.map((r) => r.url)).toEqual(['https://example.org/fresh']);
  });
});
