import { ConfigError } from '@research/core';
import { loadMcpClientConfig } from '@research/mcp';

describe('the settings of npm run mcp', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadMcpClientConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('reads the API URL (without its trailing slash) and the key', () => {
    expect(
      loadMcpClientConfig({ RESEARCH_API_URL: 'https://research.example/base/', RESEARCH_API_KEY: ' k ' }),
    ).toEqual({ apiUrl: 'https://research.example/base', apiKey: 'k' });
  });

  it('lists every problem at once', () => {
    expect(problemsOf({})).toEqual([
      expect.stringMatching(/^RESEARCH_API_URL: required/),
      expect.stringMatching(/^RESEARCH_API_KEY: required/),
    ]);
    expect(problemsOf({ RESEARCH_API_URL: 'localhost:8000', RESEARCH_API_KEY: 'k' })).toEqual([
      'RESEARCH_API_URL: must be an http:// or https:// URL',
    ]);
  });

  it('refuses credentials in the URL, which messages show', () => {
    for (const url of ['http://user:secret@127.0.0.1:8000', 'http://:secret@127.0.0.1:8000']) {
      expect(problemsOf({ RESEARCH_API_URL: url, RESEARCH_API_KEY: 'k' })).toEqual([
        'RESEARCH_API_URL: must not carry credentials (use RESEARCH_API_KEY)',
      ]);
    }
  });
});
