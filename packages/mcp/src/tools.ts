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
  description: `The state of a research run (${RUN_STATES.join(', ')}), its progress and counts of sources and claims.`,
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
  startResearch,
  getResearch,
  getReport,
  listClaims,
  search,
  listCollections,
  searchCollection,
]);
