import type { ReportBody } from '@research/core';
import type { ClaimRow } from '@research/database';
import type { RunSnapshot, StepContext } from '../steps';
import { relateClaims } from './compare.step';
import { isGerman } from './language';
import { round2 } from './text';

const MAX_FINDINGS = 8;
const PRIMARY_TYPES = new Set(['government', 'academic']);

function quote(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The report from the run's evidence: the best-supported claims as findings (score = half the claim's
 * confidence + half its cross-source support, minus 0.3 × its contradiction level), disagreements where
 * related claims contradict, and what stays uncertain.
 */
export function synthesizeStep(ctx: StepContext, snapshot: RunSnapshot, now = new Date()): ReportBody {
  const german = isGerman(ctx.run.language);
  const { sources, claims, evidence } = snapshot;
  const scores = new Map(evidence.map((e) => [e.claim_id, e]));
  const relations = relateClaims(claims);
  const score = (c: ClaimRow) => {
    const e = scores.get(c.id);
    return round2(0.5 * c.confidence + 0.5 * (e?.cross_source_support ?? 0) - 0.3 * (e?.contradiction_level ?? 0));
  };
  const seen = new Set<string>();
  const best = [...claims]
    .sort((a, b) => score(b) - score(a) || a.position - b.position)
    .filter((c) => {
      const key = c.claim_text.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_FINDINGS);
  const findings = best.map((c) => ({
    text: c.claim_text,
    confidence: score(c),
    source_ids: [...new Set([c.source_id, ...relations.get(c.id)!.related.map((r) => r.source_id)])],
  }));

  const sourceName = new Map(sources.map((s) => [s.id, s.title ?? s.url]));
  const disagreements = claims
    .filter((c) => relations.get(c.id)!.contradicting.length > 0)
    .slice(0, 5)
    .map((c) => ({
      claim: c.claim_text,
      positions: [c, ...relations.get(c.id)!.contradicting.slice(0, 3)].map((x) => ({
        source: sourceName.get(x.source_id) ?? x.source_id,
        view: quote(x.claim_text),
      })),
    }));

  const uncertainties = [...ctx.notes];
  const single = findings.filter((f) => f.source_ids.length === 1).length;
  if (sources.length === 0)
    uncertainties.push(german ? 'Es wurden keine lesbaren Quellen gefunden.' : 'No readable sources were found.');
  else if (claims.length === 0)
    uncertainties.push(
      german ? 'Die Quellen enthielten keine Aussagen zur Frage.' : 'The sources held no statements on the question.',
    );
  if (single > 0) {
    uncertainties.push(
      german
        ? `${single} von ${findings.length} Ergebnissen stützen sich auf nur eine Quelle.`
        : `${single} of ${findings.length} findings rest on a single source.`,
    );
  }
  if (disagreements.length > 0)
    uncertainties.push(
      german ? 'Quellen widersprechen einander in einzelnen Punkten.' : 'Sources contradict each other on some points.',
    );

  const primary = sources.filter((s) => PRIMARY_TYPES.has(s.source_type ?? '')).length;
  const query = ctx.run.query;
  const summary =
    findings.length === 0
      ? german
        ? `Zu „${quote(query)}“ ließen sich keine belegten Aussagen finden.`
        : `No supported statements were found on "${quote(query)}".`
      : (german
          ? `${sources.length} Quellen und ${claims.length} Aussagen zu „${quote(query)}“ ausgewertet. Am besten belegt: `
          : `Read ${sources.length} sources and ${claims.length} statements on "${quote(query)}". Best supported: `) +
        best
          .slice(0, 3)
          .map((c) => quote(c.claim_text, 240))
          .join(' ');
  const methodology = german
    ? `Extraktives Verfahren ohne Sprachmodell in ${ctx.rounds} Runde(n): Suchanfragen aus den Begriffen der Frage, ` +
      'Wikipedia-Suche, Abruf der Seiten, Sätze mit Fragebegriffen als wörtlich belegte Aussagen, ' +
      'Bewertung nach Stützung durch andere Quellen, Widersprüchen, Quellentyp und Aktualität.'
    : `Extractive method without a language model, in ${ctx.rounds} round(s): search queries from the question's terms, ` +
      "Wikipedia search, page retrieval, sentences sharing the question's terms as verbatim-quoted claims, " +
      'scored by support from other sources, contradictions, source type and recency.';
  return {
    summary,
    findings,
    disagreements,
    uncertainties,
    source_statistics: {
      total_sources: sources.length,
      primary_sources: primary,
      secondary_sources: sources.length - primary,
    },
    methodology,
    generated_at: now.toISOString(),
  };
}
