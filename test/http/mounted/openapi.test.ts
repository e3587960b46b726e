import { buildOpenApiDocument } from '@research/http';

describe('OpenAPI document of the mounted route groups', () => {
  const doc = buildOpenApiDocument();
  const paths = doc.paths as Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, unknown> }>
  >;

  it.each([
    ['post', '/search'],
    ['post', '/crawler/fetch'],
    ['post', '/crawler/fetch/batch'],
    ['post', '/crawler/validate-url'],
    ['post', '/research/planner'],
    ['get', '/research/{run_id}/claims'],
    ['post', '/research/{run_id}/claims'],
    ['post', '/research/{run_id}/cluster-claims'],
    ['get', '/research/{run_id}/clusters'],
    ['get', '/research/{run_id}/claim-relations'],
    ['get', '/research/{run_id}/evidence'],
    ['post', '/research/{run_id}/evidence'],
    ['get', '/research/{run_id}/synthesis'],
    ['post', '/research/{run_id}/synthesis'],
    ['post', '/vision/analyze'],
    ['post', '/audio/transcribe'],
  ])('describes %s %s with a key and its 401', (method, path) => {
    const operation = paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(operation!.security).toEqual([{ ApiKey: [] }]);
    expect(operation!.responses['200']).toBeDefined();
    expect(operation!.responses['401']).toBeDefined();
  });

  it('carries examples for the request and response shapes', () => {
    const schemas = (doc.components?.schemas ?? {}) as Record<string, { example?: unknown }>;
    for (const name of [
      'SearchResponse',
      'CrawledDocument',
      'PlannerResponse',
      'VisionResponse',
      'TranscriptionResponse',
    ]) {
      expect(schemas[name]?.example).toBeDefined();
    }
    // Request bodies are written out where they are used (document-finish.ts), their examples with them.
    const extract = (paths['/research/{run_id}/claims']!.post as { requestBody?: any }).requestBody;
    expect(extract.content['application/json'].schema.example).toBeDefined();
  });
});
