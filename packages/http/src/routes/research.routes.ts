import { Router } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey, requireApiKeyAndRun } from '../middleware/authenticate';
import type { KeyQuota } from '../middleware/key-quotas';
import {
  presentClaims,
  presentCreatedRun,
  presentEvidence,
  presentListItem,
  presentPlan,
  presentRunStatus,
  presentSources,
} from '../presenters/research.presenter';
import { scopeOf, visibleRunOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import type { RunEventHub } from '../run-event-hub';
import {
  cancelRun,
  getRunClaims,
  getRunEvidence,
  getRunSources,
  listRuns,
  createResearchRun,
  protectRun,
  softDeleteRun,
  unprotectRun,
} from '@research/runs';
import { runEventsHandler } from './research-events.routes';
import { runManifestHandler, sourceContentHandler } from './research-evidence.routes';
import { webhookDeliveriesHandler } from './webhook-deliveries.routes';
import { estimateHandler } from './run-estimate.routes';
import { approvePlanHandler, editPlanHandler } from './plan-review.routes';
import { collectionsOnly } from './run-collections.schemas';
import { reportDocumentHandler, reportHandler } from './report-export.routes';
import type { CancelResponse } from './research-events.schemas';
import { parseBody, parseQuery } from '../validation';
import {
  createResearchBodySchema,
  deleteResearchBodySchema,
  listResearchQuerySchema,
  removeProtectionBodySchema,
  setProtectionBodySchema,
  type HideResponse,
  type ProtectionResponse,
  type ResearchListResponse,
} from './research.schemas';

/**
 * `/v1/research` (SPEC 4.2–4.11). Reads are open to any authenticated caller (the list is not filtered by
 * owner); deletion and protection are for the owner or an administrator; creation is within the key's
 * run quota.
 */
export function createResearchRouter(ctx: AppContext, runQuota: KeyQuota, parts: { events: RunEventHub }): Router {
  const router = Router();
  const body = jsonBody();

  // Reads of one run: the key and the run in one statement. Registered before the router-wide key check,
  // with the same order of answers: 401 (key), then 400/413 (body), then 404 (run).
  const keyAndRun = requireApiKeyAndRun(ctx);

  router.get('/:id', keyAndRun, body, (req, res) => {
    res.json(presentRunStatus(visibleRunOf(res, req.params.id), ctx.config.llm.prices));
  });

  router.get('/:id/status', keyAndRun, body, (req, res) => {
    res.json(presentRunStatus(visibleRunOf(res, req.params.id), ctx.config.llm.prices));
  });

  router.get('/:id/sources', keyAndRun, body, async (req, res) => {
    const run = visibleRunOf(res, req.params.id);
    res.json(presentSources(run.id, await getRunSources(ctx.db, run)));
  });

  router.get('/:id/claims', keyAndRun, body, async (req, res) => {
    const run = visibleRunOf(res, req.params.id);
    res.json(presentClaims(run.id, await getRunClaims(ctx.db, run)));
  });

  router.get('/:id/evidence', keyAndRun, body, async (req, res) => {
    const run = visibleRunOf(res, req.params.id);
    res.json(presentEvidence(run.id, await getRunEvidence(ctx.db, run)));
  });

  router.get('/:id/plan', keyAndRun, body, (req, res) => {
    res.json(presentPlan(visibleRunOf(res, req.params.id)));
  });

  router.get('/:id/report', keyAndRun, body, reportHandler(ctx));
  router.get('/:id/report/document', keyAndRun, body, reportDocumentHandler(ctx));

  router.get('/:id/events', keyAndRun, body, runEventsHandler(ctx, parts.events));

  router.get('/:id/sources/:source_id/content', keyAndRun, body, sourceContentHandler(ctx));

  router.get('/:id/manifest', keyAndRun, body, runManifestHandler(ctx));
  router.get('/:id/webhook-deliveries', keyAndRun, body, webhookDeliveriesHandler(ctx));

  // Everything else: the key is checked before the body is read, so an anonymous client never makes us
  // parse 1 MiB.
  router.use(requireApiKey(ctx), body);

  router.post('/estimate', estimateHandler(ctx));

  router.post('/', async (req, res) => {
    const input = parseBody(createResearchBodySchema, req.body, { required: true });
    // The quota counts valid requests only: a rejected body or depth creates no run and costs nothing.
    const scope = scopeOf(res);
    const collections_only = collectionsOnly(req.body);
    const run = await createResearchRun(ctx, scope, { ...input, collections_only }, () =>
      runQuota.take(scope.actor.keyId),
    );
    res.json(presentCreatedRun(run));
  });

  router.get('/', async (req, res) => {
    const page = parseQuery(listResearchQuerySchema, req.query);
    const { total, items } = await listRuns(ctx.db, page, {
      ...(page.parent_id !== undefined ? { parentId: page.parent_id } : {}),
      ...(page.q !== undefined ? { text: page.q } : {}),
    });
    res.json({
      total,
      limit: page.limit,
      offset: page.offset,
      items: items.map(presentListItem),
    } satisfies ResearchListResponse);
  });

  router.delete('/:id', async (req, res) => {
    const input = parseBody(deleteResearchBodySchema, req.body, { required: false });
    const { research_id } = await softDeleteRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ status: 'hidden', research_id } satisfies HideResponse);
  });

  router.post('/:id/cancel', async (req, res) => {
    const { research_id } = await cancelRun(ctx, scopeOf(res), req.params.id, requestSignal(res));
    res.status(202).json({ research_id, status: 'cancelling' } satisfies CancelResponse);
  });

  router.put('/:id/plan', editPlanHandler(ctx));
  router.post('/:id/approve', approvePlanHandler(ctx));

  router.put('/:id/deletion-protection', async (req, res) => {
    const input = parseBody(setProtectionBodySchema, req.body, { required: true });
    await protectRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ is_deletion_protected: true } satisfies ProtectionResponse);
  });

  router.delete('/:id/deletion-protection', async (req, res) => {
    const input = parseBody(removeProtectionBodySchema, req.body, { required: true });
    await unprotectRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ is_deletion_protected: false } satisfies ProtectionResponse);
  });

  return router;
}
