import { z } from 'zod';
import { ConfigError } from '@research/core';

/** What the stdio MCP server needs: the research API it talks to and the key it talks with. */
export interface McpClientConfig {
  /** Base URL of a running research API, without a trailing slash (`http://127.0.0.1:8000`). */
  readonly apiUrl: string;
  readonly apiKey: string;
}

const required = (what: string) =>
  z
    .string({ error: `required (${what})` })
    .trim()
    .min(1, `required (${what})`);

const envSchema = z.object({
  RESEARCH_API_URL: required('the base URL of a running research API, e.g. http://127.0.0.1:8000')
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL')
    // The URL is shown in messages; a key belongs in RESEARCH_API_KEY.
    .refine(
      (v) => !URL.canParse(v) || !(new URL(v).username || new URL(v).password),
      'must not carry credentials (use RESEARCH_API_KEY)',
    ),
  RESEARCH_API_KEY: required('an API key of that service, from `npm run cli -- keys create <user>`'),
});

/** Parses RESEARCH_API_URL and RESEARCH_API_KEY; throws ConfigError listing every problem. */
export function loadMcpClientConfig(env: NodeJS.ProcessEnv = process.env): McpClientConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return Object.freeze({
    apiUrl: parsed.data.RESEARCH_API_URL.replace(/\/+$/, ''),
    apiKey: parsed.data.RESEARCH_API_KEY,
  });
}
