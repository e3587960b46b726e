import request from 'supertest';
import { buildTestApp, type TestApp } from './support';

describe('API description (/docs, /redoc, /openapi.json)', () => {
  describe('with DEBUG on', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('docs', { env: { DEBUG: 'true' } });
    });
    afterAll(() => t.close());

    it('serves an OpenAPI 3 document of every route without a key', async () => {
      const res = await request(t.app).get('/openapi.json').expect(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(Object.keys(res.body.paths).sort()).toEqual(
        [
          '/health',
          '/metrics',
          '/providers',
          '/ready',
          '/v1/admin/research/deleted',
          '/v1/admin/research/{id}',
          '/v1/research',
          '/v1/research/estimate',
          '/v1/research/{id}',
          '/v1/research/{id}/claims',
          '/v1/research/{id}/deletion-protection',
          '/v1/research/{id}/evidence',
          '/v1/research/{id}/events',
          '/v1/research/{id}/cancel',
          '/v1/research/{id}/manifest',
          '/v1/research/{id}/plan',
          '/v1/research/{id}/report',
          '/v1/research/{id}/report/document',
          '/v1/research/{id}/sources',
          '/v1/research/{id}/sources/{source_id}/content',
          '/v1/research/{id}/status',
          '/v1/research/{id}/webhook-deliveries',
          '/v1/research/{id}/approve',
          '/search',
          '/crawler/fetch',
          '/crawler/fetch/batch',
          '/crawler/validate-url',
          '/research/planner',
          '/research/{run_id}/claims',
          '/research/{run_id}/cluster-claims',
          '/research/{run_id}/clusters',
          '/research/{run_id}/claim-relations',
          '/research/{run_id}/evidence',
          '/research/{run_id}/synthesis',
          '/vision/analyze',
          '/audio/transcribe',
          '/mcp',
          '/v1/collections',
          '/v1/collections/{id}',
          '/v1/collections/{id}/documents',
          '/v1/collections/{id}/documents/{doc_id}',
          '/v1/collections/{id}/search',
        ].sort(),
      );
      expect(res.body.components.securitySchemes.ApiKey).toEqual(
        expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      );
    });

    it('describes requests with the same rules that validate them', async () => {
      const { body } = await request(t.app).get('/openapi.json').expect(200);
      // Request bodies are written out where they are used (see document-finish.ts).
      const create = body.paths['/v1/research'].post.requestBody.content['application/json'].schema;
      expect(create.required).toEqual(['query']);
      expect(create.properties.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
      expect(create.properties.depth).toMatchObject({
        type: 'string',
        enum: ['quick', 'normal', 'deep'],
        default: 'normal',
      });
      expect(create.properties.extra_queries).toMatchObject({ type: 'array', maxItems: 20, nullable: true });
      const protect = body.paths['/v1/research/{id}/deletion-protection'].put.requestBody.content['application/json'];
      expect(protect.schema.properties.password).toMatchObject({
        minLength: 8,
        maxLength: 256,
      });
      const params = body.paths['/v1/research'].get.parameters;
      expect(params).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'limit',
            in: 'query',
            schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 10 }),
          }),
          expect.objectContaining({
            name: 'offset',
            in: 'query',
            schema: expect.objectContaining({ type: 'integer', minimum: 0, default: 0 }),
          }),
        ]),
      );
      expect(body.paths['/v1/research/{id}'].delete.responses).toHaveProperty('403');
      expect(body.components.schemas.ResearchStatusResponse.example).toBeDefined();
    });

    it('serves Swagger UI at /docs', async () => {
      const res = await request(t.app).get('/docs/').expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('swagger-ui');
      const init = await request(t.app).get('/docs/swagger-ui-init.js').expect(200);
      expect(init.text).toContain('/v1/research');
      const redirect = await request(t.app).get('/docs');
      expect([200, 301]).toContain(redirect.status);
    });

    it('serves ReDoc at /redoc with its bundle from the installed package', async () => {
      const page = await request(t.app).get('/redoc').expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('/redoc/redoc.standalone.js');
      expect(page.text).toContain('spec-url="/openapi.json"');
      const bundle = await request(t.app).get('/redoc/redoc.standalone.js').expect(200);
      expect(bundle.headers['content-type']).toMatch(/javascript/);
    });
  });

  describe('with DEBUG off', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('nodocs');
    });
    afterAll(() => t.close());

    it.each(['/docs', '/docs/', '/redoc', '/openapi.json', '/redoc/redoc.standalone.js'])(
      'does not serve %s (404)',
      async (path) => {
        await request(t.app).get(path).expect(404, { detail: 'Not Found' });
      },
    );
  });
});
