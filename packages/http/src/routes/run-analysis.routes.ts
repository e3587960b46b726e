import { Router, type Response } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import { presentClusters, presentRelations } from '../presenters/mounted.presenter';
import { presentClaims, presentEvidence, presentReport } from '../presenters/research.presenter';
import { scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import {
  getRunClaims,
  getRunEvidence,
  getRunReport,
  getVisibleRun,
  clusterRunClaims,
  extractRunClaims,
  getRunClaimRelations,
  getRunClusters,
  rescoreRunEvidence,
  synthesizeRunReport,
  type ClaimsInput,
  type RunRequest,
} from '@research/runs';
import { parseBody, parseQuery } from '../validation';
import { addPlannerRoutes } from './planner.routes';
import {
  extractClaimsBodySchema,
  listRelationsQuerySchema,
  type ExtractClaimsResponse,
  type SynthesisResponse,
} from './run-analysis.schemas';

/**
 * `/research`: the planner and the analysis steps of one run (claims, clustering, evidence, synthesis).
 * Reads follow /v1 (any authenticated caller; unknown, malformed or hidden is 404); writes are for the
 * run's owner or an administrator (403) and only once the run has ended (409).
 */
export function createRunAnalysisRouter(ctx: AppContext): Router {
  const router = Router();
  const runRequest = (id: string, res: Response): RunRequest => ({
    ctx,
    scope: scopeOf(res),
    id,
    signal: requestSignal(res),
  });
  // The key is checked per route, so an unknown path (e.g. POST /research) stays a 404 without one.
  router.use(
    [
      '/planner',
      '/:run_id/claims',
      '/:run_id/cluster-claims',
      '/:run_id/clusters',
      '/:run_id/claim-relations',
      '/:run_id/evidence',
      '/:run_id/synthesis',
    ],
    requireApiKey(ctx),
    jsonBody(),
  );
  addPlannerRoutes(router, ctx);

  router.get('/:run_id/claims', async (req, res) => {
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    res.json(presentClaims(run.id, await getRunClaims(ctx.db, run)));
  });

  router.post('/:run_id/claims', async (req, res) => {
    const input = parseBody(extractClaimsBodySchema, req.body, { required: true });
    const claimsInput: ClaimsInput =
      input.source_id !== undefined
        ? { source_id: input.source_id, language: input.language }
        : input.text !== undefined
          ? { text: input.text, url: input.url!, title: input.title ?? null, language: input.language }
          : { fetch_url: input.url!, title: input.title ?? null, language: input.language };
    const result = await extractRunClaims({ ...runRequest(req.params.run_id, res), input: claimsInput });
    const { claims, total } = presentClaims(result.runId, result.claims);
    res.json({
      research_id: result.runId,
      source_id: result.sourceId,
      claims,
      total,
      created: result.created,
      source_created: result.sourceCreated,
      engine: result.mode,
      fallbacks: result.fallbacks.map(([reason, count]) => ({ step: 'analyze', reason, count })),
      ungrounded_dropped: result.ungrounded,
      over_limit_dropped: result.overLimit,
    } satisfies ExtractClaimsResponse);
  });

  router.post('/:run_id/cluster-claims', async (req, res) => {
    const result = await clusterRunClaims(ctx, scopeOf(res), req.params.run_id);
    res.json({ ...presentClusters(result.runId, result.clusters), relations: result.relations });
  });

  router.get('/:run_id/clusters', async (req, res) => {
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    res.json(presentClusters(run.id, await getRunClusters(ctx.db, run.id)));
  });

  router.get('/:run_id/claim-relations', async (req, res) => {
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    const page = parseQuery(listRelationsQuerySchema, req.query);
    const { total, relations } = await getRunClaimRelations(ctx.db, run.id, page);
    res.json(presentRelations(run.id, relations, total, page));
  });

  router.get('/:run_id/evidence', async (req, res) => {
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    res.json(presentEvidence(run.id, await getRunEvidence(ctx.db, run)));
  });

  router.post('/:run_id/evidence', async (req, res) => {
    const evidence = await rescoreRunEvidence(runRequest(req.params.run_id, res));
    res.json(presentEvidence(req.params.run_id, evidence));
  });

  router.get('/:run_id/synthesis', async (req, res) => {
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    res.json(presentReport(run, await getRunReport(ctx.db, run)));
  });

  router.post('/:run_id/synthesis', async (req, res) => {
    const result = await synthesizeRunReport(runRequest(req.params.run_id, res));
    const run = await getVisibleRun(ctx.db, req.params.run_id);
    res.json({
      ...presentReport(run, result.row),
      engine: result.engine,
      fallbacks: result.fallbacks.map((f) => ({ step: 'synthesize', reason: f.reason, count: f.count })),
    } satisfies SynthesisResponse);
  });

  return router;
}
