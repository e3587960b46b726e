import express, { type Express } from 'express';
import type { AppContext } from './context';
import { corsPolicy } from './middleware/cors';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { createKeyQuotas } from './middleware/key-quotas';
import { requestContext } from './middleware/request-context';
import { createAdminRouter } from './routes/admin.routes';
import { createCollectionsRouter } from './routes/collections.routes';
import { createDocsRouter } from './routes/docs.routes';
import { createMcpRouter } from './routes/mcp.routes';
import { createMountedRouter } from './routes/mounted.routes';
import { createResearchRouter } from './routes/research.routes';
import { createSystemRouter } from './routes/system.routes';
import { createWebPageRouter } from './routes/web-page.routes';
import { RunEventHub } from './run-event-hub';

/**
 * The HTTP application over a context of real parts. No side effects until the caller listens:
 * building an app opens nothing.
 */
export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // Bodies are small and polled; weak ETags would only add hashing on the hot status path.
  app.set('etag', false);

  app.use(requestContext(ctx.logger));
  app.use(corsPolicy());

  // Keyed route groups: each router mounts requireApiKey itself. First, so the hot reads do not walk the
  // public routes (their paths do not overlap).
  const quotas = createKeyQuotas(ctx.config, ctx.redis);
  const events = ctx.runEvents ?? new RunEventHub(ctx.db, { pollMs: ctx.config.http.eventsPollMs, logger: ctx.logger });
  app.use('/v1/research', createResearchRouter(ctx, quotas.runs, { events }));
  app.use('/v1/admin', createAdminRouter(ctx));
  app.use('/v1/collections', createCollectionsRouter(ctx));
  // The research tools for assistants (MCP over streamable HTTP), calling this API with the caller's key.
  app.use('/mcp', createMcpRouter(ctx));
  // SPEC 1.8 / 4.14: search, crawler, planner, run analysis, vision and audio, each under its prefix.
  app.use(createMountedRouter(ctx, quotas));

  // Public: system endpoints, the web page's own files and, under DEBUG only, the API description.
  app.use(createSystemRouter(ctx));
  if (ctx.config.webRoot) app.use(createWebPageRouter(ctx.config.webRoot));
  if (ctx.config.debug) app.use(createDocsRouter());

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
