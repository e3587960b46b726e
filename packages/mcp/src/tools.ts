import { z } from 'zod';
import { DEPTHS, RUN_STATES } from '@research/core';
import { REPORT_FORMATS, type ApiObject, type ResearchApi } from './research-api.client';

/** A tool of the MCP server: what the assistant sees, and the one API call it makes. */
export interface ResearchTool<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Input;
  /** Hints for the assistant's host (MCP tool annotations); the API enforces the rules. */
  readonly annotations: { readOnlyHint: boolean; openWorldHint: boolean; idempotentHint?: boolean };
  call(api: ResearchApi, input: z.output<Input>): Promise<ApiObject | string>;
}

function defineTool<Input extends z.ZodObject>(tool: ResearchTool<Input>): ResearchTool {
  return tool as unknown as ResearchTool;
}

// The tools check only what the assistant needs to call them; every field rule is the API's own (its 422
// detail comes back as the tool's error). A run id is held to id characters so it stays one path segment.
const researchId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a research run id')
  .describe('The research_id that start_research returned (a UUID).');

const readOnly = { readOnlyHint: true, openWorldHint: false, idempotentHint: true };

const startResearch = defineTool({
  name: 'start_research',
  title: 'Start a research run',
  description:
    'Starts a research run on a question: the service plans, searches the web, reads the sources, extracts ' +
    'claims with their evidence and writes a cited report. Returns the research_id at once; the run takes ' +
    'from seconds to minutes. Follow it with get_research, then read get_report and list_claims. Any further ' +
    'field the research API accepts on POST /v1/research is passed on as it is.',
  inputSchema: z.looseObject({
    query: z.string().describe('The research question (1 to 2000 characters).'),
    depth: z.enum(DEPTHS).optional().describe('Resource budget of the run (default normal).'),
    language: z.string().optional().describe('Language code of the run and its report (default de).'),
    extra_queries: z.array(z.string()).optional().describe('Search queries to add to the plan (at most 20).'),
    include_domains: z
      .array(z.string())
      .optional()
      .describe('Only sources from these hosts (and their subdomains), at most 50, e.g. ["europa.eu"].'),
    exclude_domains: z.array(z.string()).optional().describe('No sources from these hosts (or their subdomains).'),
    published_after: z.string().optional().describe('Refuse sources dated before this day (YYYY-MM-DD).'),
    max_sources: z.number().int().optional().describe("At most this many sources (up to the depth's budget)."),
    max_llm_tokens: z
      .number()
      .int()
      .optional()
      .describe('Cap on the LLM tokens (in and out) the run may spend; past it the run goes on without the LLM.'),
    review_plan: z
      .boolean()
      .optional()
      .describe(
        'Stop after planning (state awaiting_review) until the plan is approved with approve_plan; get_plan shows it, edit_plan changes it.',
      ),
    parent_id: z
      .string()
      .optional()
      .describe(
        'Ask a follow-up: the research_id of a finished run whose sources, claims and evidence the new run starts ' +
          'from (not fetched again, still cited); it then searches only for what the new question needs.',
      ),
    collection_ids: z
      .array(z.string())
      .optional()
      .describe(
        'Collections (list_collections) to search beside the web, at most 10; with include_domains: [] instead of the web.',
      ),
  }),
  annotations: { readOnlyHint: false, openWorldHint: true },
  call: (api, input) => api.startResearch(input),
});

/** A tool that reads one run by its id alone, with the API call of that name. */
function runRead(
  read: 'getResearch' | 'listClaims',
  tool: Pick<ResearchTool, 'name' | 'title' | 'description'>,
): ResearchTool {
  return defineTool({
    ...tool,
    inputSchema: z.object({ research_id: researchId }),
    annotations: readOnly,
    call: (api, input) => api[read](input.research_id),
  });
}

const getResearch = runRead('getResearch', {
  name: 'get_research',
  title: 'Status of a research run',
  description:
    `The state of a research run (${RUN_STATES.join(', ')}), its progress and counts of sources and claims, ` +
    'and in `cost` what it spent so far: LLM calls, tokens in and out, search queries, pages and the estimated ' +
    'price in USD (null when the service has no LLM prices), and how it was asked for: parent_id, review_plan and ' +
    'collections (the collection ids, and whether the web is searched beside them).',
});

const getReport = defineTool({
  name: 'get_report',
  title: 'Report of a research run',
  description:
    'The report of a research run: summary, findings with citations, disagreements, uncertainties and ' +
    'sources. format json (default) gives the structured report; markdown or html the exported document.',
  inputSchema: z.object({
    research_id: researchId,
    format: z.enum(REPORT_FORMATS).default('json').describe('json (default), markdown or html.'),
  }),
  annotations: readOnly,
  call: (api, input) => api.getReport(input.research_id, input.format),
});

const listClaims = runRead('listClaims', {
  name: 'list_claims',
  title: 'Claims of a research run',
  description: 'Every claim the run took from its sources, with the exact evidence span, its source and type.',
});

const search = defineTool({
  name: 'search',
  title: 'Web search',
  description:
    'One web search through the service’s configured search provider: results with URL, title, snippet ' +
    'and date. No research run is started.',
  inputSchema: z.object({
    query: z.string().describe('The search query (1 to 500 characters).'),
    provider: z.string().optional().describe('A provider configured on the service (default: its SEARCH_PROVIDER).'),
    language: z.string().optional().describe('Language of the results (default de).'),
    max_results: z.number().int().optional().describe('Results wanted (1 to 20, default 10).'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  call: (api, input) => api.search(input),
});

const estimateResearch = defineTool({
  name: 'estimate_research',
  title: 'Estimate the cost of a research run',
  description:
    'What a research run of a depth is expected to spend before starting it: LLM calls, tokens, estimated ' +
    "price in USD, search queries, pages and seconds, as the medians of the service's recent runs of that " +
    'depth (based_on_runs of them; 0 means no run finished yet and the figures are the most its budget allows). ' +
    'No run is started.',
  inputSchema: z.object({
    query: z.string().describe('The research question (1 to 2000 characters).'),
    depth: z.enum(DEPTHS).optional().describe('Resource budget of the run (default normal).'),
    language: z.string().optional().describe('Language code of the run (default de).'),
  }),
  annotations: readOnly,
  call: (api, input) => api.estimateResearch(input),
});

const getPlan = defineTool({
  name: 'get_plan',
  title: 'Plan of a research run',
  description:
    'The plan of a research run: its search_queries, counter_evidence_queries and sub_questions. A run started with review_plan waits in state awaiting_review until approve_plan; edit_plan changes the plan meanwhile.',
  inputSchema: z.object({ research_id: researchId }),
  annotations: readOnly,
  call: (api, input) => api.getPlan(input.research_id),
});

const editPlan = defineTool({
  name: 'edit_plan',
  title: 'Edit the plan of a run awaiting review',
  description:
    'Replaces the queries (search_queries: every query the plan sends beside the question, counter-evidence ones included) and the sub_questions of the plan of a run in state awaiting_review; a list left out stays. Only its owner may. Returns the plan as it now stands.',
  inputSchema: z.object({
    research_id: researchId,
    search_queries: z
      .array(z.string())
      .optional()
      .describe('The queries to search (at most 20, each 1 to 500 characters).'),
    sub_questions: z.array(z.string()).optional().describe('The sub-questions (at most 20, each 1 to 500 characters).'),
  }),
  annotations: { readOnlyHint: false, openWorldHint: false, idempotentHint: true },
  call: (api, { research_id, ...body }) => api.editPlan(research_id, body),
});

const approvePlan = defineTool({
  name: 'approve_plan',
  title: 'Approve the plan of a run awaiting review',
  description:
    'Lets a run in state awaiting_review go on from its plan (as edited): it searches, reads and reports as any run. Only its owner may. Follow it with get_research.',
  inputSchema: z.object({ research_id: researchId }),
  annotations: { readOnlyHint: false, openWorldHint: true },
  call: (api, input) => api.approvePlan(input.research_id),
});

const listResearch = defineTool({
  name: 'list_research',
  title: 'Find research runs',
  description:
    'Finds earlier research runs, newest first: with q, those whose question or report summary hold its words ' +
    '(best match first; "a phrase", or, -word as in a search box); with parent_id, the follow-ups of that run. ' +
    'Each item has research_id, query, state, counts and parent_id; read one with get_research or get_report.',
  inputSchema: z.object({
    q: z.string().optional().describe('Words to find in the question or the report summary (1 to 200 characters).'),
    parent_id: researchId.optional().describe('Only the follow-ups of this run.'),
    limit: z.number().int().optional().describe('Runs wanted (1 to 100, default 10).'),
    offset: z.number().int().optional().describe('Runs to skip (default 0).'),
  }),
  annotations: readOnly,
  call: (api, input) => api.listResearch(input),
});

const collectionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a collection id')
  .describe('The collection_id list_collections gives (a UUID).');

const listCollections = defineTool({
  name: 'list_collections',
  title: 'Collections of documents',
  description:
    "The collections of uploaded documents the key may read (its own and the service's), newest first, with " +
    'their ids, names, languages and document counts. Search one with search_collection, or name them in ' +
    "start_research's collection_ids.",
  inputSchema: z.object({
    limit: z.number().int().optional().describe('Collections wanted (1 to 100, default 10).'),
    offset: z.number().int().optional().describe('Collections to skip (default 0).'),
  }),
  annotations: readOnly,
  call: (api, input) => api.listCollections(input),
});

const searchCollection = defineTool({
  name: 'search_collection',
  title: 'Search a collection',
  description:
    'Full-text search of one collection\'s documents (every word; "a phrase", -word and or work as in a web ' +
    'search), best first, each with its title, the passage that matched, its collection:// URL and the SHA-256 ' +
    'of its text. No research run is started.',
  inputSchema: z.object({
    collection_id: collectionId,
    query: z.string().describe('What to find (1 to 500 characters).'),
    limit: z.number().int().optional().describe('Documents wanted (1 to 50, default 10).'),
  }),
  annotations: readOnly,
  call: (api, input) =>
    api.searchCollection(input.collection_id, { q: input.query, ...(input.limit ? { limit: input.limit } : {}) }),
});

/** The tools of the research MCP server, in the order an assistant would use them. */
export const RESEARCH_TOOLS: readonly ResearchTool[] = Object.freeze([
  estimateResearch,
  startResearch,
  getResearch,
  getReport,
  listClaims,
  search,
  getPlan,
  editPlan,
  approvePlan,
  listResearch,
  listCollections,
  searchCollection,
]);
