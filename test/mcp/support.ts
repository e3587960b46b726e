import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSilentLogger } from '@research/observability';
import { closeServer, listen } from '@research/runtime';
import { startFakeWikipediaSearch, type FakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { buildMountedApp, type MountedTestApp } from '../http/mounted/support';
import { insertRunResults, insertTestRun } from '../http/support';

/** A report as the synthesize step stores it. */
export const STORED_REPORT = {
  summary: 'Homeoffice hält die Produktivität im Mittel stabil.',
  findings: [{ text: 'Zwei Studien finden keinen Rückgang.', confidence: 0.8, source_ids: ['s1'] }],
  disagreements: [],
  uncertainties: ['wenige Studien'],
  source_statistics: { total_sources: 2, primary_sources: 0, secondary_sources: 2 },
  methodology: 'Pipeline',
  generated_at: '2026-11-21T10:00:00.000Z',
};

/** The research API of the MCP tests: the real app on a loopback port, its search provider a fake Wikipedia. */
export interface McpTestApi {
  readonly m: MountedTestApp;
  readonly wiki: FakeWikipediaSearch;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** A completed run of the owner, with two sources, four claims and a report. */
  readonly completedRun: string;
  /** A run its owner deleted (hidden): unknown to every read. */
  readonly hiddenRun: string;
  close(): Promise<void>;
}

/** Starts the API (real Postgres, Redis, HTTP server) for the MCP clients to talk to. */
export async function startMcpTestApi(label: string, env: Record<string, string> = {}): Promise<McpTestApi> {
  const wiki = await startFakeWikipediaSearch({
    documents: {
      en: [
        { url: '', title: 'Remote work', text: 'Remote work and productivity: what studies found.' },
        { url: '', title: 'Productivity', text: 'Productivity in remote work rose in one study.' },
      ],
    },
  });
  const m = await buildMountedApp(label, {
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrlTemplate,
      SEARCH_MAX_RETRIES: '0',
      SEARCH_TIMEOUT_MS: '2000',
      ...env,
    },
  });
  const server: Server = await listen(m.app, m.t.ctx.config, createSilentLogger());
  const completedRun = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', query: 'Homeoffice' });
  await insertRunResults(m.t.db, completedRun, { sources: 2, report: STORED_REPORT });
  const hiddenRun = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', hidden: true });
  return {
    m,
    wiki,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    completedRun,
    hiddenRun,
    async close() {
      await closeServer(server);
      await m.close();
      await wiki.close();
    },
  };
}

/** GETs a path of the API with a key, as a client would: the answer the MCP tools must give back. */
export async function apiGet(origin: string, path: string, key: string): Promise<unknown> {
  const res = await fetch(`${origin}${path}`, { headers: { 'X-API-Key': key } });
  return res.json();
}
