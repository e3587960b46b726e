import type { Migration } from 'kysely';
import * as initial from './2026-11-21T0000-initial';
import * as pageCache from './2026-11-22T0000-page-cache';
import * as visibleRunCounter from './2026-11-22T0100-visible-run-counter';
import * as claimGraph from './2026-11-22T0200-claim-graph';
import * as claimStance from './2026-11-23T0000-claim-stance';
import * as runEvents from './2026-11-28T0000-run-events';
import * as sourceControls from './2026-11-28T0200-source-controls';
import * as provenance from './2026-11-28T0300-provenance';
import * as webhooks from './2026-11-28T0400-webhooks';
import * as evidenceGraph from './2026-12-01T0000-evidence-graph';
import * as followUps from './2026-12-02T0000-follow-ups';
import * as planReview from './2026-12-02T0100-plan-review';
import * as collections from './2026-12-02T0200-collections';
import * as runCost from './2026-12-02T0300-run-cost';

/** Every migration, by name; names sort in the order they apply. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T0000-initial': initial,
  '2026-11-22T0000-page-cache': pageCache,
  '2026-11-22T0100-visible-run-counter': visibleRunCounter,
  '2026-11-22T0200-claim-graph': claimGraph,
  '2026-11-23T0000-claim-stance': claimStance,
  '2026-11-28T0000-run-events': runEvents,
  '2026-11-28T0200-source-controls': sourceControls,
  '2026-11-28T0300-provenance': provenance,
  '2026-11-28T0400-webhooks': webhooks,
  '2026-12-01T0000-evidence-graph': evidenceGraph,
  '2026-12-02T0000-follow-ups': followUps,
  '2026-12-02T0100-plan-review': planReview,
  '2026-12-02T0200-collections': collections,
  '2026-12-02T0300-run-cost': runCost,
};
