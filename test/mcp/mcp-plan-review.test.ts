import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { extractivePlan } from '@research/engine';
import { findRunById } from '@research/database';
import { insertTestRun } from '../http/support';
import { startMcpTestApi, type McpTestApi } from './support';

// Plan review through the MCP tools (streamable HTTP): each tool is one call of the API with the caller's key.
describe('MCP plan review tools', () => {
  let api: McpTestApi;
  let owner: Client;
  let other: Client;

  const connect = async (key: string): Promise<Client> => {
    const mcp = new Client({ name: 'mcp-review-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    return mcp;
  };
  const call = async (name: string, args: Record<string, unknown>, mcp = owner) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;

  /** A run of the owner as the runner leaves it after planning with review_plan: awaiting review, plan stored. */
  async function waitingRun(): Promise<string> {
    const query = 'Does remote work raise productivity?';
    const plan = extractivePlan({ query, language: 'en', extraQueries: [], referenceDate: new Date() });
    const id = await insertTestRun(api.m.t.db, { owner: api.m.t.owner.id, state: 'awaiting_review', query, plan });
    await api.m.t.db
      .updateTable('research_runs')
      .set({
        review_plan: true,
        review_requested_at: new Date(),
        started_at: new Date(),
        checkpoint: JSON.stringify({ round: 1, done: ['plan'], rounds: 2, notes: [] }),
      })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    api = await startMcpTestApi('mcpreview');
    owner = await connect(api.m.t.owner.key);
    other = await connect(api.m.t.other.key);
  });
  afterAll(async () => {
    await owner?.close();
    await other?.close();
    await api.close();
  });

  it('starts a run with review_plan, which the API stores', async () => {
    const started = await call('start_research', { query: 'Remote work', depth: 'quick', review_plan: true });
    expect(started.isError).toBeFalsy();
    const run = await findRunById(api.m.t.db, started.structuredContent!.research_id as string);
    expect(run?.review_plan).toBe(true);
    const refused = await call('start_research', { query: 'Remote work', review_plan: 'yes' });
    // The tool's schema refuses it before the API is called.
    expect(refused.isError).toBe(true);
  });

  it('shows, edits and approves the plan of a run awaiting review', async () => {
    const id = await waitingRun();
    const shown = await call('get_plan', { research_id: id });
    expect(shown.structuredContent).toMatchObject({ research_id: id, available: true });

    const edited = await call('edit_plan', {
      research_id: id,
      search_queries: ['remote work productivity meta-analysis'],
      sub_questions: ['Which studies measure it?'],
    });
    expect(edited.isError).toBeFalsy();
    expect(edited.structuredContent).toMatchObject({
      plan: {
        search_queries: [{ query: 'remote work productivity meta-analysis', dimension: 'user' }],
        sub_questions: ['Which studies measure it?'],
      },
    });
    expect((await call('get_plan', { research_id: id })).structuredContent).toEqual(edited.structuredContent);

    const approved = await call('approve_plan', { research_id: id });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toEqual({ research_id: id, status: 'approved', state: 'searching' });
    expect((await findRunById(api.m.t.db, id))?.state).toBe('searching');

    const again = await call('approve_plan', { research_id: id });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toEqual({
      status: 409,
      detail: `Research run ${id} is not awaiting review (state searching); only a run awaiting review of its plan can be approved.`,
    });
  });

  it("answers as the API for another caller's run and bad lists: 403, 422, nothing changed", async () => {
    const id = await waitingRun();
    const forbidden = await call('approve_plan', { research_id: id }, other);
    expect(forbidden.structuredContent).toEqual({ status: 403, detail: 'You may only manage your own research runs.' });
    const edit = await call('edit_plan', { research_id: id, search_queries: ['x'] }, other);
    expect(edit.structuredContent).toMatchObject({ status: 403 });
    const tooMany = await call('edit_plan', { research_id: id, search_queries: Array(21).fill('q') });
    expect(tooMany.structuredContent).toEqual({ status: 422, detail: 'search_queries: must have at most 20 items' });
    expect((await findRunById(api.m.t.db, id))?.state).toBe('awaiting_review');
  });
});
