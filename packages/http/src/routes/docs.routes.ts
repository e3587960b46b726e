import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from '../openapi/openapi-document';

const REDOC_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Research service – ReDoc</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * `/openapi.json`, `/docs` (Swagger UI) and `/redoc`, all public, mounted only when DEBUG is on (SPEC 4.1).
 * Everything is served from installed packages: no CDN, no download at run time.
 */
export function createDocsRouter(): Router {
  const router = Router();
  const document = buildOpenApiDocument();
  const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');

  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // serveFiles (not serve) keeps the document per app instead of in swagger-ui-express's module state.
  router.use(
    '/docs',
    swaggerUi.serveFiles(document),
    swaggerUi.setup(document, { customSiteTitle: 'Research service – API' }),
  );
  router.get('/redoc', (_req, res) => {
    res.type('html').send(REDOC_HTML);
  });
  router.get('/redoc/redoc.standalone.js', (_req, res) => {
    res.sendFile(redocBundle);
  });
  return router;
}
