import { contentSha256, evidenceSpanProblem, sourceIndexes } from '@research/core';
import { findRunById, listClaims, listSources, type ClaimRow, type Db, type SourceRow } from '@research/database';

/** One piece of a run's evidence that does not hold: a source's text, or a claim's span in it. */
export interface EvidenceFailure {
  /** Null when the source itself fails. */
  claim_id: string | null;
  source_id: string;
  reason: string;
}

/** What verifying a run found. */
export interface EvidenceCheck {
  research_id: string;
  sources: number;
  claims: number;
  failures: EvidenceFailure[];
}

function sourceProblem(source: Pick<SourceRow, 'content' | 'content_sha256'>): string | null {
  if (source.content_sha256 === null) return 'no content_sha256 stored';
  const actual = contentSha256(source.content);
  return actual === source.content_sha256
    ? null
    : `the text's SHA-256 is ${actual}, not the stored content_sha256 ${source.content_sha256}`;
}

/**
 * Checks a run's evidence as anyone could from the API: each source's text against its content_sha256,
 * and each claim's evidence_span against its source's text at [span_start, span_end) (code points).
 */
export function checkEvidence(
  sources: ReadonlyArray<Pick<SourceRow, 'id' | 'content' | 'content_sha256'>>,
  claims: ReadonlyArray<Pick<ClaimRow, 'id' | 'source_id' | 'evidence_span' | 'span_start' | 'span_end'>>,
): EvidenceFailure[] {
  const failures: EvidenceFailure[] = [];
  const byId = new Map(sources.map((s) => [s.id, s]));
  const indexOf = sourceIndexes();
  for (const source of sources) {
    const reason = sourceProblem(source);
    if (reason) failures.push({ claim_id: null, source_id: source.id, reason });
  }
  for (const claim of claims) {
    const source = byId.get(claim.source_id);
    if (!source) {
      failures.push({ claim_id: claim.id, source_id: claim.source_id, reason: 'its source is not in the run' });
      continue;
    }
    const reason = evidenceSpanProblem(source.content, claim, indexOf(source));
    if (reason) failures.push({ claim_id: claim.id, source_id: source.id, reason });
  }
  return failures;
}

/** Verifies the stored run `runId` (hidden or not); undefined when there is no such run. */
export async function verifyRunEvidence(db: Db, runId: string): Promise<EvidenceCheck | undefined> {
  const run = await findRunById(db, runId);
  if (!run) return undefined;
  const [sources, claims] = await Promise.all([listSources(db, runId), listClaims(db, runId)]);
  return {
    research_id: runId,
    sources: sources.length,
    claims: claims.length,
    failures: checkEvidence(sources, claims),
  };
}
