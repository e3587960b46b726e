import crypto from 'node:crypto';
import {
  AppError,
  DEPTH_BUDGETS,
  Details,
  hasSourceControls,
  isDepth,
  isUuid,
  validationError,
  type Depth,
  type SourceControls,
} from '@research/core';
import { mayManage } from '@research/auth';
import {
  deleteRetentionRecord,
  deleteRun,
  findRetentionRecord,
  findRetentionRecordForUpdate,
  hideRetentionRecord,
  hideVisibleRun,
  insertAuditRecord,
  insertRetentionRecord,
  insertRun,
  listHiddenRetentionRecords,
  refreshRunCounts,
  setRetentionPassword,
  type RetentionRow,
} from '@research/database';
import type { RunsContext } from './context';
import type { RequestScope } from './scope';
import { enqueueRun } from './enqueue-run';
import { getVisibleRun } from './research-reads.service';
import { checkedCallbackUrl } from './webhooks.service';
import { checkFollowUpParent, lockFollowUpParent, seedFollowUp } from './follow-up.service';
import { checkedRunCollections } from './collections.service';

// A management call re-reads and retries when the protection changed between its checks and its commit.
const MAX_ATTEMPTS = 3;

type Ctx = Pick<RunsContext, 'db' | 'queue' | 'passwords' | 'onEnqueueFailed' | 'config'>;

export interface CreateRunInput {
  query: string;
  language: string;
  depth: string;
  extra_queries: string[] | null;
  /** Source controls (issue 13 section 4), already validated but for max_sources' bound by the depth. */
  include_domains?: string[];
  exclude_domains?: string[];
  published_after?: string | null;
  max_sources?: number | null;
  /** Webhook target (issue 13 section 3), checked by checkedCallbackUrl. */
  callback_url?: string | null;
  /** Cap on the run's LLM tokens in and out together, already validated; kept in its budget. */
  max_llm_tokens?: number | null;
  /** Plan review: the run stops after its plan until a caller approves it (plan-review.service.ts). */
  review_plan?: boolean;
  /** The run this one follows up (follow-up.service.ts): its evidence is copied in. */
  parent_id?: string | null;
  /** Collections the run searches (each one the caller may read: checkedRunCollections). */
  collection_ids?: string[];
  /** With collection_ids: search them instead of the web (created with `include_domains: []`). */
  collections_only?: boolean;
}

/**
 * The run's source controls (null without any) and its budget: max_sources lowers the depth's. A
 * max_sources above the depth's is a 422, checked here because it needs the depth (after the depth's 400).
 */
function controlledBudget(input: CreateRunInput, depth: Depth) {
  const budget = { ...DEPTH_BUDGETS[depth] };
  const controls: SourceControls = {
    include_domains: input.include_domains ?? [],
    exclude_domains: input.exclude_domains ?? [],
    published_after: input.published_after ?? null,
    max_sources: input.max_sources ?? null,
  };
  if (controls.max_sources !== null) {
    if (controls.max_sources > budget.max_sources) {
      throw validationError('max_sources', `must be at most ${budget.max_sources} for depth ${depth}`);
    }
    budget.max_sources = controls.max_sources;
  }
  return { budget, controls: hasSourceControls(controls) ? controls : null };
}

/**
 * SPEC 4.2: stores the run (state `created`) and its retention record in one transaction, then enqueues
 * its job. A queue that is down does not fail the request: the run is committed and the reconciler
 * enqueues it later. `admit` (the caller's quota) runs once the input is valid, before anything is stored.
 */
export async function createResearchRun(
  ctx: Ctx,
  scope: RequestScope,
  input: CreateRunInput,
  admit: () => Promise<void> = async () => {},
): Promise<{ id: string; query: string; depth: Depth }> {
  if (!isDepth(input.depth)) throw new AppError('bad_request', Details.invalidDepth(input.depth));
  const depth = input.depth;
  const { budget, controls } = controlledBudget(input, depth);
  const callbackUrl = await checkedCallbackUrl(ctx.config, input.callback_url ?? null);
  const parentId = input.parent_id ?? null;
  if (parentId !== null) await checkFollowUpParent(ctx.db, parentId);
  const collectionIds = await checkedRunCollections(ctx.db, scope.actor, input.collection_ids);
  await admit();
  const id = crypto.randomUUID();
  await ctx.db.transaction().execute(async (trx) => {
    if (parentId !== null) {
      const { sourceCount } = await lockFollowUpParent(trx, parentId);
      budget.max_sources += sourceCount;
    }
    await insertRun(trx, {
      id,
      query: input.query,
      language: input.language,
      depth,
      budget: JSON.stringify(input.max_llm_tokens ? { ...budget, max_llm_tokens: input.max_llm_tokens } : budget),
      state: 'created',
      owner_user_id: scope.actor.userId,
      request_id: scope.requestId,
      extra_queries: input.extra_queries === null ? null : JSON.stringify(input.extra_queries),
      callback_url: callbackUrl,
      source_controls: controls === null ? null : JSON.stringify(controls),
      ...(input.review_plan ? { review_plan: true } : {}),
      ...(parentId !== null ? { parent_id: parentId } : {}),
      ...(collectionIds === null
        ? {}
        : { collections: JSON.stringify({ ids: collectionIds, web: input.collections_only !== true }) }),
    });
    await insertRetentionRecord(trx, { research_id: id, owner_user_id: scope.actor.userId, query: input.query });
    if (parentId !== null) {
      await seedFollowUp(trx, parentId, id);
      await refreshRunCounts(trx, id);
    }
  });

  // Enqueued after commit, so a worker never picks up a run it cannot read.
  await enqueueRun(ctx, scope, id);
  return { id, query: input.query, depth };
}

function conflict(): AppError {
  return new AppError('conflict', 'The research run was changed by another request at the same time; please retry.');
}

/** The protection a decision was made on is still the one committed (and the record is still visible). */
function unchanged(seen: RetentionRow | undefined, current: RetentionRow | undefined): boolean {
  if (!seen || !current) return seen === current;
  return (
    !current.is_hidden && current.password_hash === seen.password_hash && current.owner_user_id === seen.owner_user_id
  );
}

/**
 * SPEC 4.9 soft delete, rules in order: 404, 403 not the owner, 403 password (administrators need none).
 * The password is verified outside the transaction (argon2 is slow); the transaction then applies the
 * delete only if the protection it was checked against is unchanged.
 */
export async function softDeleteRun(
  ctx: Ctx,
  scope: RequestScope,
  id: string,
  input: { password?: string | null },
): Promise<{ research_id: string }> {
  const { actor } = scope;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const run = await getVisibleRun(ctx.db, id);
    const record = await findRetentionRecord(ctx.db, run.id);
    // A run without a retention record skips the owner and password rules.
    if (record) {
      if (!mayManage(record.owner_user_id, actor)) throw new AppError('forbidden', Details.notOwner);
      if (
        record.password_hash !== null &&
        !actor.isAdmin &&
        !(await ctx.passwords.verify(record.password_hash, input.password))
      ) {
        throw new AppError('forbidden', Details.passwordRequired);
      }
    }
    const done = await ctx.db.transaction().execute(async (trx) => {
      const current = await findRetentionRecordForUpdate(trx, run.id);
      if (!unchanged(record, current)) return false;
      if (!(await hideVisibleRun(trx, run.id))) throw new AppError('not_found', Details.runNotFound(id));
      if (current) await hideRetentionRecord(trx, run.id);
      await insertAuditRecord(trx, { research_id: run.id, actor_user_id: actor.userId, action: 'soft_deleted' });
      return true;
    });
    if (done) return { research_id: run.id };
  }
  throw conflict();
}

/**
 * SPEC 4.10: sets or replaces the deletion-protection password (only its argon2id hash is stored).
 * Ownership is the retention record's owner, or the run's owner for a run without one.
 */
export async function protectRun(
  ctx: Ctx,
  scope: RequestScope,
  id: string,
  input: { password: string; current_password?: string | null },
): Promise<void> {
  const { actor } = scope;
  let newHash: string | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const run = await getVisibleRun(ctx.db, id);
    const record = await findRetentionRecord(ctx.db, run.id);
    if (!mayManage(record ? record.owner_user_id : run.owner_user_id, actor))
      throw new AppError('forbidden', Details.notOwner);
    if (!record) throw new AppError('conflict', Details.legacyRun);
    if (
      record.password_hash !== null &&
      !actor.isAdmin &&
      !(await ctx.passwords.verify(record.password_hash, input.current_password))
    ) {
      throw new AppError('forbidden', Details.currentPasswordRequired);
    }
    newHash ??= await ctx.passwords.hash(input.password);
    const hash = newHash;
    const done = await ctx.db.transaction().execute(async (trx) => {
      const current = await findRetentionRecordForUpdate(trx, run.id);
      if (!unchanged(record, current)) return false;
      await setRetentionPassword(trx, run.id, hash);
      return true;
    });
    if (done) return;
  }
  throw conflict();
}

/** SPEC 4.11: removes the protection; a run without a record or without protection is left as it is. */
export async function unprotectRun(
  ctx: Ctx,
  scope: RequestScope,
  id: string,
  input: { password?: string | null },
): Promise<void> {
  const { actor } = scope;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const run = await getVisibleRun(ctx.db, id);
    const record = await findRetentionRecord(ctx.db, run.id);
    if (!mayManage(record ? record.owner_user_id : run.owner_user_id, actor))
      throw new AppError('forbidden', Details.notOwner);
    if (!record || record.password_hash === null) return;
    if (!actor.isAdmin && !(await ctx.passwords.verify(record.password_hash, input.password))) {
      throw new AppError('forbidden', Details.passwordRequired);
    }
    const done = await ctx.db.transaction().execute(async (trx) => {
      const current = await findRetentionRecordForUpdate(trx, run.id);
      if (!unchanged(record, current)) return false;
      await setRetentionPassword(trx, run.id, null);
      return true;
    });
    if (done) return;
  }
  throw conflict();
}

/** SPEC 4.12: hidden runs, newest hidden first (the caller is an administrator). */
export function listHiddenRuns(ctx: Pick<RunsContext, 'db'>): Promise<RetentionRow[]> {
  return listHiddenRetentionRecords(ctx.db);
}

/**
 * SPEC 4.13: permanently removes a hidden run. The audit record `purged` is written in the same
 * transaction; sources, claims, evidence, report and search results go with the run (ON DELETE CASCADE).
 */
export async function purgeRun(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
): Promise<{ research_id: string }> {
  if (!isUuid(id)) throw new AppError('not_found', Details.noHiddenRun);
  return ctx.db.transaction().execute(async (trx) => {
    const record = await findRetentionRecordForUpdate(trx, id);
    if (!record || !record.is_hidden) throw new AppError('not_found', Details.noHiddenRun);
    await insertAuditRecord(trx, {
      research_id: record.research_id,
      actor_user_id: scope.actor.userId,
      action: 'purged',
    });
    await deleteRetentionRecord(trx, record.research_id);
    await deleteRun(trx, record.research_id);
    return { research_id: record.research_id };
  });
}
