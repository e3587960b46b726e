import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Details } from '@research/core';
import { buildOpenApiDocument } from '@research/http';
import { UNKNOWN_ID } from '../http/support';
import { STORED_REPORT, apiGet, startMcpTestApi, type McpTestApi } from './support';

const RUNS_PER_MINUTE = 2;

describe('POST /mcp (MCP over streamable HTTP)', () => {
  let api: McpTestApi;
  let client: Client;

  const connect = async (headers: Record<string, string>): Promise<Client> => {
    const mcp = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), { requestInit: { headers } }));
    return mcp;
  };
  const call = async (name: string, args: Record<string, unknown>, mcp = client) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
  const postRaw = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
    fetch(`${api.origin}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    api = await startMcpTestApi('mcphttp', {
      RUNS_PER_KEY_PER_MINUTE: String(RUNS_PER_MINUTE),
      LLM_PRICE_INPUT_PER_MTOK: '2',
      LLM_PRICE_OUTPUT_PER_MTOK: '8',
    });
    client = await connect({ Authorization: `Bearer ${api.m.t.owner.key}` });
  });
  afterAll(async () => {
    await client?.close();
    await api.close();
  });

  it('lists the tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'estimate_research',
      'start_research',
      'get_research',
      'get_report',
      'list_claims',
      'search',
      'get_plan',
      'edit_plan',
      'approve_plan',
      'list_research',
      'list_collections',
      'search_collection',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.start_research!.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { depth: { enum: ['quick', 'normal', 'deep'] }, include_domains: { type: 'array' } },
    });
    // Fields beyond the listed ones (the API's newer create fields) are passed on, not refused.
    expect(byName.start_research!.inputSchema.additionalProperties).not.toBe(false);
    expect(byName.get_report!.inputSchema).toMatchObject({
      required: ['research_id'],
      properties: { format: { enum: ['json', 'markdown', 'html'], default: 'json' } },
    });
    for (const name of ['get_research', 'list_claims'])
      expect(byName[name]!.inputSchema.required).toEqual(['research_id']);
    expect(byName.search!.inputSchema).toMatchObject({ required: ['query'] });
    for (const tool of tools) expect(tool.description).toEqual(expect.any(String));
  });

  it('starts a run for the caller and then sees it with get_research', async () => {
    const started = await call('start_research', { query: 'Remote work productivity', depth: 'quick', language: 'en' });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toEqual({
      research_id: expect.any(String),
      status: 'pending',
      query: 'Remote work productivity',
      depth: 'quick',
      state: 'created',
    });
    expect(JSON.parse(textOf(started))).toEqual(started.structuredContent);
    const researchId = started.structuredContent!.research_id as string;

    // The run is the caller's, created with the key the MCP client sent.
    const row = await api.m.t.db
      .selectFrom('research_runs')
      .select(['owner_user_id', 'language'])
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_user_id: api.m.t.owner.id, language: 'en' });

    const status = await call('get_research', { research_id: researchId });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ research_id: researchId, state: 'created', depth: 'quick' });
    expect(status.structuredContent).toEqual(await apiGet(api.origin, `/v1/research/${researchId}`, api.m.t.owner.key));
  });

  it('returns the report JSON with get_report', async () => {
    const report = await call('get_report', { research_id: api.completedRun });
    expect(report.isError).toBeFalsy();
    expect(report.structuredContent).toMatchObject({ research_id: api.completedRun, summary: STORED_REPORT.summary });
    expect(report.structuredContent).toEqual(
      await apiGet(api.origin, `/v1/research/${api.completedRun}/report`, api.m.t.owner.key),
    );
    const asJson = await call('get_report', { research_id: api.completedRun, format: 'json' });
    expect(asJson.structuredContent).toEqual(report.structuredContent);
  });

  it.each([
    ['markdown', /^# /m],
    ['html', /<html/i],
  ])('returns the %s export as text with get_report', async (format, shape) => {
    const result = await call('get_report', { research_id: api.completedRun, format });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeUndefined();
    const exported = await fetch(`${api.origin}/v1/research/${api.completedRun}/report?format=${format}`, {
      headers: { 'X-API-Key': api.m.t.owner.key },
    });
    expect(textOf(result)).toBe(await exported.text());
    expect(textOf(result)).toMatch(shape);
    expect(textOf(result)).toContain('Zwei Studien finden keinen Rückgang.');
  });

  it('shows with get_research what a run spent, priced at the configured prices', async () => {
    await api.m.t.db
      .updateTable('research_runs')
      .set({ usage: JSON.stringify({ llm_requests: 3, llm_tokens_input: 4000, llm_tokens_output: 1000 }) })
      .where('id', '=', api.completedRun)
      .execute();
    const status = await call('get_research', { research_id: api.completedRun });
    expect(status.structuredContent).toEqual(
      await apiGet(api.origin, `/v1/research/${api.completedRun}`, api.m.t.owner.key),
    );
    // 4,000 tokens at $2 and 1,000 at $8 a million.
    expect(status.structuredContent!.cost).toEqual({
      llm_requests: 3,
      llm_tokens_input: 4000,
      llm_tokens_output: 1000,
      search_queries: 0,
      pages_fetched: 2,
      estimated_cost_usd: 0.016,
      max_llm_tokens: null,
    });
  });

  it('estimates a run of a depth with estimate_research, and starts none', async () => {
    const runs = () => api.m.t.db.selectFrom('research_runs').select('id').execute();
    const before = (await runs()).length;
    const estimate = await call('estimate_research', { query: 'Remote work productivity', depth: 'deep' });
    expect(estimate.isError).toBeFalsy();
    const direct = await fetch(`${api.origin}/v1/research/estimate`, {
      method: 'POST',
      headers: { 'X-API-Key': api.m.t.owner.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'Remote work productivity', depth: 'deep' }),
    });
    expect(estimate.structuredContent).toEqual(await direct.json());
    expect(estimate.structuredContent).toMatchObject({ depth: 'deep', based_on_runs: 0, llm_requests: 0 });
    expect((await runs()).length).toBe(before);
    const refused = await call('estimate_research', { query: ' ', depth: 'quick' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 422, detail: expect.stringMatching(/^query: /) });
  });

  it('finds runs with list_research and asks a follow-up with start_research parent_id', async () => {
    const key = api.m.t.owner.key;
    const found = await call('list_research', { q: 'Homeoffice' });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toEqual(await apiGet(api.origin, '/v1/research?q=Homeoffice', key));
    expect((found.structuredContent!.items as Array<{ research_id: string }>).map((i) => i.research_id)).toEqual([
      api.completedRun,
    ]);

    const started = await call('start_research', { query: 'Und im Winter?', parent_id: api.completedRun });
    expect(started.isError).toBeFalsy();
    const followUp = started.structuredContent!.research_id as string;
    const status = await call('get_research', { research_id: followUp });
    expect(status.structuredContent).toMatchObject({ parent_id: api.completedRun, source_count: 2 });
    const followUps = await call('list_research', { parent_id: api.completedRun, limit: 5 });
    expect(followUps.structuredContent).toMatchObject({ total: 1, limit: 5, items: [{ research_id: followUp }] });

    const unknown = await call('start_research', { query: 'Und im Winter?', parent_id: UNKNOWN_ID });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(`parent_id: research run ${UNKNOWN_ID} not found (HTTP 422)`);
    const blank = await call('list_research', { q: ' ' });
    expect(blank.isError).toBe(true);
    expect(blank.structuredContent).toEqual({ status: 422, detail: 'q: must not be blank' });
  });

  it('lists the claims of a run with list_claims', async () => {
    const claims = await call('list_claims', { research_id: api.completedRun });
    expect(claims.isError).toBeFalsy();
    expect(claims.structuredContent).toEqual(
      await apiGet(api.origin, `/v1/research/${api.completedRun}/claims`, api.m.t.owner.key),
    );
    expect(claims.structuredContent).toMatchObject({ research_id: api.completedRun, total: 4 });
  });

  it('searches through the configured provider with search', async () => {
    const before = api.wiki.requests.length;
    const found = await call('search', { query: 'remote work productivity', language: 'en', max_results: 5 });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toMatchObject({ provider: 'wikipedia', language: 'en' });
    const titles = (found.structuredContent!.results as { title: string }[]).map((r) => r.title);
    expect(titles).toEqual(expect.arrayContaining(['Productivity', 'Remote work']));
    expect(api.wiki.requests.length).toBeGreaterThan(before);
  });

  it.each([
    ['get_research', UNKNOWN_ID, {}],
    ['get_report', UNKNOWN_ID, {}],
    ['get_report', UNKNOWN_ID, { format: 'markdown' }],
    ['list_claims', UNKNOWN_ID, {}],
    ['get_research', 'not-a-uuid', {}],
  ])('answers %s of an unknown run (%s %o) with a tool error carrying the API 404 detail', async (tool, id, more) => {
    const result = await call(tool, { research_id: id, ...more });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ status: 404, detail: Details.runNotFound(id) });
    expect(textOf(result)).toBe(`${Details.runNotFound(id)} (HTTP 404)`);
    expect(textOf(result)).not.toMatch(/\n\s+at /);
  });

  it('refuses a research_id that is not an id, so it cannot reach another path of the API', async () => {
    const result = await call('get_report', { research_id: '../../../health' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('must be a research run id');
    expect(textOf(result)).not.toContain('"status":"ok"');
  });

  it('keeps a hidden run unknown, as GET /v1/research/{id} does', async () => {
    const result = await call('get_research', { research_id: api.hiddenRun });
    expect(result.structuredContent).toEqual({ status: 404, detail: Details.runNotFound(api.hiddenRun) });
  });

  it("passes the API's field rules on as tool errors (422)", async () => {
    const tooMany = await call('search', { query: 'x', max_results: 21 });
    expect(tooMany).toMatchObject({
      isError: true,
      structuredContent: { status: 422, detail: 'max_results: must be at most 20' },
    });
    const blank = await call('start_research', { query: '   ' });
    expect(blank.structuredContent).toEqual({ status: 422, detail: 'query: must not be blank' });
    // The source controls reach the API, which judges them.
    const badDate = await call('start_research', { query: 'Solar power', published_after: '2026-02-30' });
    expect(badDate.structuredContent).toMatchObject({
      status: 422,
      detail: expect.stringMatching(/^published_after: /),
    });
  });

  it("holds the caller's key to its run quota", async () => {
    const user = await api.m.t.createUser(`mcp-quota-${Date.now()}`);
    const own = await connect({ Authorization: `Bearer ${user.key}` });
    try {
      for (let i = 0; i < RUNS_PER_MINUTE; i++) {
        expect((await call('start_research', { query: `Frage ${i}` }, own)).isError).toBeFalsy();
      }
      const refused = await call('start_research', { query: 'eine zu viel' }, own);
      expect(refused).toMatchObject({ isError: true, structuredContent: { status: 429 } });
    } finally {
      await own.close();
    }
  });

  it("lists the caller's collections and searches one, as the API answers, and keeps another user's unknown", async () => {
    const key = api.m.t.owner.key;
    const created = await fetch(`${api.origin}/v1/collections`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'MCP notes', language: 'en' }),
    });
    const collection = ((await created.json()) as { collection_id: string }).collection_id;
    const form = new FormData();
    form.append('file', new Blob(['Lighthouse keepers logged the storms of the winter.']), 'log.txt');
    const uploaded = await fetch(`${api.origin}/v1/collections/${collection}/documents`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form,
    });
    expect(uploaded.status).toBe(201);

    const listed = await call('list_collections', { limit: 100 });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual(await apiGet(api.origin, '/v1/collections?limit=100', key));
    expect(JSON.stringify(listed.structuredContent)).toContain(collection);

    const found = await call('search_collection', { collection_id: collection, query: 'storm' });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toEqual(
      await apiGet(api.origin, `/v1/collections/${collection}/search?q=storm`, key),
    );
    expect((found.structuredContent as { results: Array<{ title: string }> }).results).toEqual([
      expect.objectContaining({ title: 'Lighthouse keepers logged the storms of the winter.', rank: 1 }),
    ]);

    const other = await connect({ Authorization: `Bearer ${api.m.t.other.key}` });
    try {
      const refused = await call('search_collection', { collection_id: collection, query: 'storm' }, other);
      expect(refused).toMatchObject({
        isError: true,
        structuredContent: { status: 404, detail: `Collection ${collection} not found` },
      });
    } finally {
      await other.close();
    }
    const escape = await call('search_collection', { collection_id: '../../health', query: 'x' });
    expect(escape.isError).toBe(true);
    expect(textOf(escape)).toContain('must be a collection id');
  });

  it('takes the key as X-API-Key too', async () => {
    const mcp = await connect({ 'X-API-Key': api.m.t.other.key });
    try {
      const status = await call('get_research', { research_id: api.completedRun }, mcp);
      expect(status.structuredContent).toMatchObject({ research_id: api.completedRun, state: 'completed' });
    } finally {
      await mcp.close();
    }
  });

  it('answers a lone tools/call as JSON, as curl sends it (no session to open first)', async () => {
    const res = await postRaw(
      { Authorization: `Bearer ${api.m.t.owner.key}` },
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_research', arguments: { research_id: api.completedRun } },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const answer = (await res.json()) as { id: number; result: CallToolResult };
    expect(answer.id).toBe(7);
    expect(answer.result.structuredContent).toMatchObject({ research_id: api.completedRun, state: 'completed' });
  });

  it('answers 401 {"detail"} without a valid key, before reading the message', async () => {
    const wrong = await postRaw({ Authorization: `Bearer ${api.m.t.owner.key.slice(0, -2)}xx` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'Invalid API key.' });
    const none = await postRaw({});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: expect.stringMatching(/^Missing API key/) });
    const notBearer = await postRaw({ Authorization: `Basic ${api.m.t.owner.key}` });
    expect(notBearer.status).toBe(401);

    const refused = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), {
      requestInit: {
        headers: { Authorization: 'Bearer rsk_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      },
    });
    await expect(refused.connect(transport)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('Invalid API key.'),
    });
  });

  it('is stateless: GET and DELETE answer 405 {"detail"}, unknown paths stay 404', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${api.origin}/mcp`, {
        method,
        headers: { Authorization: `Bearer ${api.m.t.owner.key}`, Accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toEqual({ detail: expect.stringContaining('POST') });
    }
    const unknown = await fetch(`${api.origin}/mcp/other`, { headers: { 'X-API-Key': api.m.t.owner.key } });
    expect(unknown.status).toBe(404);
  });

  it('answers a body over 1 MiB with 413 {"detail"}', async () => {
    const res = await postRaw(
      { Authorization: `Bearer ${api.m.t.owner.key}` },
      { ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(1024 * 1024) } },
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Request body too large (limit 1 MiB).' });
  });
});

describe('OpenAPI document of /mcp', () => {
  it('describes POST /mcp with a Bearer key or X-API-Key, and its 401', () => {
    const doc = buildOpenApiDocument();
    const post = (doc.paths as Record<string, Record<string, { security?: unknown[]; responses: object }>>)['/mcp']!
      .post!;
    expect(post.security).toEqual([{ ApiKey: [] }, { BearerApiKey: [] }]);
    expect(post.responses).toHaveProperty('200');
    expect(post.responses).toHaveProperty('401');
    expect((doc.components?.securitySchemes as Record<string, unknown>).BearerApiKey).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
  });
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
