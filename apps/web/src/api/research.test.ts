import http from 'node:http';
import { listenOnLoopback, type LoopbackServer } from '../../../../test/support/loopback';
import { ApiClient } from './client';
import {
  deleteRun,
  estimateRun,
  listHiddenRuns,
  listRuns,
  protectRun,
  purgeRun,
  retryRun,
  startResearch,
  unprotectRun,
} from './research';

// The calls go through the real ApiClient and fetch to a loopback server that records what arrives and answers
// as the API does.
interface Received {
  method: string;
  url: string;
  key: string | undefined;
  contentType: string | undefined;
  body: string;
}

let server: LoopbackServer;
let received: Received[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = await listenOnLoopback(
    http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          key: req.headers['x-api-key'] as string | undefined,
          contentType: req.headers['content-type'],
          body,
        });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    }),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  received = [];
  answer = { status: 200, body: {} };
});

const api = () => new ApiClient('key-1', () => {}, server.origin);
const ID = 'a1/b';

describe('the calls of the Ask, Runs and Admin pages', () => {
  it('asks a run again with its collections, instead of the web when it was asked so', async () => {
    const asked = { query: 'q', depth: 'quick', language: 'en', extra_queries: null, source_controls: null };
    answer = { status: 200, body: { ...asked, collections: { ids: ['c1'], web: false } } };
    await retryRun(api(), 'r1');
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/research/r1/manifest', 'POST /v1/research']);
    expect(JSON.parse(received[1]!.body)).toEqual({
      query: 'q',
      depth: 'quick',
      language: 'en',
      collection_ids: ['c1'],
      include_domains: [],
    });
    received = [];
    answer = { status: 200, body: { ...asked, collections: { ids: ['c1'], web: true } } };
    await retryRun(api(), 'r1');
    expect(JSON.parse(received[1]!.body)).toEqual({
      query: 'q',
      depth: 'quick',
      language: 'en',
      collection_ids: ['c1'],
    });
  });

  it('starts a run with the body as given', async () => {
    answer = {
      status: 200,
      body: { research_id: 'r1', status: 'pending', query: 'q', depth: 'quick', state: 'created' },
    };
    const run = await startResearch(api(), { query: 'q', depth: 'quick', include_domains: ['europa.eu'] });
    expect(run.research_id).toBe('r1');
    expect(received).toEqual([
      {
        method: 'POST',
        url: '/v1/research',
        key: 'key-1',
        contentType: 'application/json',
        body: JSON.stringify({ query: 'q', depth: 'quick', include_domains: ['europa.eu'] }),
      },
    ]);
  });

  it('asks again as the run was asked, its cap on LLM tokens included', async () => {
    // The server answers every call alike: here a manifest that is also a created run's answer.
    answer = {
      status: 200,
      body: {
        research_id: 'r2',
        query: 'q',
        depth: 'quick',
        language: 'en',
        extra_queries: null,
        source_controls: null,
        cost: { max_llm_tokens: 5000 },
      },
    };
    await retryRun(api(), 'r1');
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/research/r1/manifest', 'POST /v1/research']);
    expect(JSON.parse(received[1]!.body)).toEqual({ query: 'q', depth: 'quick', language: 'en', max_llm_tokens: 5000 });
  });

  it('asks again for the plan to be reviewed when the run was asked so, and not otherwise', async () => {
    const asked = { query: 'q', depth: 'quick', language: 'en', extra_queries: null, source_controls: null };
    answer = { status: 200, body: { ...asked, review_plan: true } };
    await retryRun(api(), 'r1');
    expect(JSON.parse(received[1]!.body)).toEqual({ query: 'q', depth: 'quick', language: 'en', review_plan: true });
    received = [];
    answer = { status: 200, body: { ...asked, review_plan: false } };
    await retryRun(api(), 'r1');
    expect(JSON.parse(received[1]!.body)).toEqual({ query: 'q', depth: 'quick', language: 'en' });
  });

  it('estimates a run of a depth with a question of its own, the figures depending on the depth alone', async () => {
    await estimateRun(api(), 'deep');
    expect(received).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/v1/research/estimate',
        body: JSON.stringify({ query: 'A deep research run', depth: 'deep' }),
      }),
    ]);
  });

  it('lists a page of runs by limit and offset', async () => {
    answer = { status: 200, body: { total: 0, limit: 10, offset: 20, items: [] } };
    await listRuns(api(), { offset: 20, limit: 10 });
    expect(received[0]).toMatchObject({ method: 'GET', url: '/v1/research?limit=10&offset=20', body: '' });
  });

  it('lists the runs a search finds, and the follow-ups of a run, with their words encoded', async () => {
    answer = { status: 200, body: { total: 0, limit: 10, offset: 0, items: [] } };
    await listRuns(api(), { offset: 0, limit: 10 }, undefined, { q: 'bamboo & "shoots"' });
    await listRuns(api(), { offset: 0, limit: 100 }, undefined, { parentId: ID });
    expect(received.map((r) => r.url)).toEqual([
      '/v1/research?limit=10&offset=0&q=bamboo+%26+%22shoots%22',
      `/v1/research?limit=100&offset=0&parent_id=${encodeURIComponent(ID)}`,
    ]);
  });

  it('deletes with the password in the body when one was entered, and with no body otherwise', async () => {
    answer = { status: 200, body: { status: 'hidden', research_id: ID } };
    await deleteRun(api(), ID, 'secret pass');
    await deleteRun(api(), ID, '');
    expect(received.map(({ method, url, contentType, body }) => ({ method, url, contentType, body }))).toEqual([
      {
        method: 'DELETE',
        url: '/v1/research/a1%2Fb',
        contentType: 'application/json',
        body: '{"password":"secret pass"}',
      },
      { method: 'DELETE', url: '/v1/research/a1%2Fb', contentType: undefined, body: '' },
    ]);
  });

  it('passes the API’s 403 detail on as it is worded', async () => {
    const detail = 'A valid deletion-protection password is required.';
    answer = { status: 403, body: { detail } };
    await expect(deleteRun(api(), ID, 'wrong')).rejects.toMatchObject({ name: 'ApiError', status: 403, detail });
  });

  it('sets protection with the current password only when one is given', async () => {
    answer = { status: 200, body: { is_deletion_protected: true } };
    await protectRun(api(), ID, { password: 'new password', currentPassword: '' });
    await protectRun(api(), ID, { password: 'new password', currentPassword: 'old password' });
    expect(received.map(({ method, url, body }) => ({ method, url, body: JSON.parse(body) as unknown }))).toEqual([
      { method: 'PUT', url: '/v1/research/a1%2Fb/deletion-protection', body: { password: 'new password' } },
      {
        method: 'PUT',
        url: '/v1/research/a1%2Fb/deletion-protection',
        body: { password: 'new password', current_password: 'old password' },
      },
    ]);
  });

  it('removes protection with a body always, the password in it when entered', async () => {
    answer = { status: 200, body: { is_deletion_protected: false } };
    await unprotectRun(api(), ID, 'the password');
    await unprotectRun(api(), ID, '');
    expect(received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'DELETE', url: '/v1/research/a1%2Fb/deletion-protection', body: '{"password":"the password"}' },
      { method: 'DELETE', url: '/v1/research/a1%2Fb/deletion-protection', body: '{}' },
    ]);
  });

  it('lists and purges hidden runs on the admin paths', async () => {
    answer = { status: 200, body: [] };
    await listHiddenRuns(api());
    answer = { status: 404, body: { detail: 'No hidden research run found.' } };
    await expect(purgeRun(api(), ID)).rejects.toMatchObject({
      status: 404,
      detail: 'No hidden research run found.',
    });
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /v1/admin/research/deleted',
      'DELETE /v1/admin/research/a1%2Fb',
    ]);
  });
});
