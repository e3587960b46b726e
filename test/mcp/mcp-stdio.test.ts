import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Details } from '@research/core';
import { UNKNOWN_ID, unusedPort } from '../http/support';
import { STORED_REPORT, apiGet, startMcpTestApi, type McpTestApi } from './support';

const ROOT = path.resolve(__dirname, '../..');
// The built entry of `npm run mcp` (npm test builds before running jest).
const ENTRY = path.join(ROOT, 'apps/api/dist/mcp.js');

interface StdioSession {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** What the server wrote to stderr. */
  readonly stderr: string[];
  /** Errors of the client's transport: a line on stdout that is not a protocol message would be one. */
  readonly transportErrors: Error[];
}

/** Starts the MCP server as an assistant would: a process whose stdin and stdout carry the protocol. */
async function startStdio(
  env: Record<string, string>,
  command: { command: string; args: string[] } = { command: process.execPath, args: [ENTRY] },
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    ...command,
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const transportErrors: Error[] = [];
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return { client, transport, stderr, transportErrors };
}

const call = async (session: StdioSession, name: string, args: Record<string, unknown>) =>
  (await session.client.callTool({ name, arguments: args })) as CallToolResult;

describe('npm run mcp (MCP over stdio)', () => {
  let api: McpTestApi;
  let session: StdioSession;

  beforeAll(async () => {
    api = await startMcpTestApi('mcpstdio');
    session = await startStdio({ RESEARCH_API_URL: `${api.origin}/`, RESEARCH_API_KEY: api.m.t.owner.key });
  });
  afterAll(async () => {
    await session?.client.close();
    await api.close();
  });

  it('lists the tools with their input schemas', async () => {
    const { tools } = await session.client.listTools();
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
    expect(tools.find((t) => t.name === 'get_report')!.inputSchema).toMatchObject({
      type: 'object',
      required: ['research_id'],
      properties: { format: { enum: ['json', 'markdown', 'html'] } },
    });
  });

  it('starts a run with the configured key, then sees it with get_research', async () => {
    const started = await call(session, 'start_research', { query: 'Remote work productivity', depth: 'quick' });
    expect(started.structuredContent).toMatchObject({ status: 'pending', state: 'created', depth: 'quick' });
    const researchId = started.structuredContent!.research_id as string;
    const row = await api.m.t.db
      .selectFrom('research_runs')
      .select('owner_user_id')
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    expect(row.owner_user_id).toBe(api.m.t.owner.id);

    const status = await call(session, 'get_research', { research_id: researchId });
    expect(status.structuredContent).toEqual(await apiGet(api.origin, `/v1/research/${researchId}`, api.m.t.owner.key));
  });

  it('reads the report and the claims of a completed run', async () => {
    const report = await call(session, 'get_report', { research_id: api.completedRun, format: 'json' });
    expect(report.structuredContent).toMatchObject({ research_id: api.completedRun, summary: STORED_REPORT.summary });
    const claims = await call(session, 'list_claims', { research_id: api.completedRun });
    expect(claims.structuredContent).toEqual(
      await apiGet(api.origin, `/v1/research/${api.completedRun}/claims`, api.m.t.owner.key),
    );
  });

  it('searches through the configured provider', async () => {
    const found = await call(session, 'search', { query: 'productivity', language: 'en' });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent!.results as { title: string }[]).map((r) => r.title)).toContain('Productivity');
  });

  it('answers an unknown run with a tool error carrying the API 404 detail', async () => {
    const result = await call(session, 'get_report', { research_id: UNKNOWN_ID });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { status: 404, detail: Details.runNotFound(UNKNOWN_ID) },
    });
  });

  it('writes nothing but protocol messages to stdout; its own words go to stderr', async () => {
    expect(session.transportErrors).toEqual([]);
    expect(session.stderr.join('')).toContain(`talking to ${api.origin}`);
    expect(session.stderr.join('')).not.toContain(api.m.t.owner.key);
  });

  it('ends when the client closes the session', async () => {
    const own = await startStdio({ RESEARCH_API_URL: api.origin, RESEARCH_API_KEY: api.m.t.other.key });
    const pid = own.transport.pid!;
    const started = Date.now();
    await own.client.close();
    // StdioClientTransport closes stdin and waits for the exit before it would signal the process.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('answers with a tool error naming the API when the API cannot be reached', async () => {
    const port = await unusedPort();
    const own = await startStdio({ RESEARCH_API_URL: `http://127.0.0.1:${port}`, RESEARCH_API_KEY: api.m.t.owner.key });
    try {
      const result = await call(own, 'get_research', { research_id: UNKNOWN_ID });
      expect(result).toMatchObject({
        isError: true,
        structuredContent: {
          status: null,
          detail: `The research API at http://127.0.0.1:${port} could not be reached.`,
        },
      });
    } finally {
      await own.client.close();
    }
  });

  it.each([
    // npm prints its banner to stdout first, which an MCP client reads as lines that are not messages and
    // skips; docs/mcp.md therefore configures clients with --silent, whose stdout is the protocol alone.
    ['run mcp', false],
    ['run --silent mcp', true],
  ])('runs as `npm %s`', async (args, cleanStdout) => {
    const npm = await startStdio(
      { RESEARCH_API_URL: api.origin, RESEARCH_API_KEY: api.m.t.owner.key },
      { command: 'npm', args: args.split(' ') },
    );
    try {
      const status = await call(npm, 'get_research', { research_id: api.completedRun });
      expect(status.structuredContent).toMatchObject({ research_id: api.completedRun, state: 'completed' });
      if (cleanStdout) expect(npm.transportErrors).toEqual([]);
    } finally {
      await npm.client.close();
    }
  });
});

describe('npm run mcp without its settings', () => {
  it('exits 2 naming RESEARCH_API_URL and RESEARCH_API_KEY, with nothing on stdout', async () => {
    const child = spawn(process.execPath, [ENTRY], {
      env: { PATH: process.env.PATH ?? '', RESEARCH_API_URL: 'ftp://example.org' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('RESEARCH_API_URL: must be an http:// or https:// URL');
    expect(stderr).toContain('RESEARCH_API_KEY: required');
  });
});
