import {
  findingCitation,
  findingCitations,
  type LlmCallContext,
  type LlmClient,
  type ReportBody,
} from '@research/core';
import * as reportPrompt from '../prompts/report.v2';
import { dateSpans, numberSpans } from '../answer/spans';
import { nameKey, questionNames } from '../text/names';
import { overlapCount, termSet } from '../text/tokens';
import type { RankedFinding } from './rank-findings';

/** A restated finding is kept only when it holds this share of the original finding's terms. */
export const RESTATEMENT_MIN_OVERLAP = 0.5;

/** Sentences of a summary (split after . ! ? and a citation block). */
function summarySentences(summary: string): string[] {
  return summary
    .split(/(?<=[.!?])\s+(?=\S)/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The report schema for this report: every summary sentence must cite findings that exist. */
function schemaFor(count: number) {
  return reportPrompt.schema.superRefine((answer, issue) => {
    for (const sentence of summarySentences(answer.summary)) {
      const cited = findingCitations(sentence, { legacy: true }).map((c) => c.number);
      if (cited.length === 0)
        issue.addIssue({
          code: 'custom',
          path: ['summary'],
          message: `sentence without a citation: "${sentence.slice(0, 80)}"`,
        });
      for (const n of cited)
        if (n < 1 || n > count)
          issue.addIssue({ code: 'custom', path: ['summary'], message: `cites [${n}], but findings are 1..${count}` });
    }
  });
}

/**
 * Lets the language model write the summary and restate the findings the engine chose. The engine
 * keeps what the evidence decides: which findings exist, their sources and confidence, disagreements,
 * uncertainties and statistics. A restatement that drifts from its finding's terms is not used.
 */
export async function llmReport(
  llm: LlmClient,
  ctx: LlmCallContext,
  params: {
    query: string;
    language: string;
    ranked: RankedFinding[];
    base: ReportBody;
    /** The span of the engine's answer (its first finding states it), or null when it found none. */
    answerSpan: string | null;
  },
): Promise<ReportBody> {
  const { ranked, base } = params;
  const answer = await llm.complete(ctx, {
    name: reportPrompt.name,
    system: reportPrompt.system,
    user: reportPrompt.user({
      question: params.query,
      language: params.language,
      findings: ranked.map((r, i) => ({
        number: i + 1,
        text: r.finding.text,
        sources: r.finding.source_ids.length,
        confidence: r.finding.confidence,
      })),
      disagreements: base.disagreements.map((d) =>
        (d.positions ?? []).map((p) => `${p.source}: ${p.view}`).join(' <> '),
      ),
    }),
    schema: schemaFor(ranked.length),
    maxTokens: 2000,
  });
  const restated = new Map(answer.findings.map((f) => [f.number, f.text]));
  const findings = base.findings.map((finding, i) => {
    const text = restated.get(i + 1);
    if (!text) return finding;
    const original = termSet(finding.text, false);
    const kept = original.size === 0 ? 0 : overlapCount(original, termSet(text, false)) / original.size;
    return kept >= RESTATEMENT_MIN_OVERLAP ? { ...finding, text } : finding;
  });
  const summary = backedSummary(asFindingCitations(answer.summary), {
    question: params.query,
    language: params.language,
    findings,
    engineSummary: base.summary,
    answerSpan: params.answerSpan,
  });
  return { ...base, summary, findings };
}

/** The model's summary citing findings as the report does (the prompt numbers them `[1]`; the report says `[F1]`). */
function asFindingCitations(summary: string): string {
  let out = '';
  let from = 0;
  for (const c of findingCitations(summary, { legacy: true })) {
    out += summary.slice(from, c.index) + findingCitation(c.number);
    from = c.index + c.length;
  }
  return out + summary.slice(from);
}

/**
 * The model's summary, each sentence kept only when every name, number and date it states is in the findings it
 * cites (or the question): a quote backs it. Its first sentence must state the engine's answer (`answerSpan`,
 * when the engine found one); when it does not, the engine's own first sentence (the answer, or that no
 * statement gives it) opens the summary.
 */
function backedSummary(
  summary: string,
  {
    question,
    language,
    findings,
    engineSummary,
    answerSpan,
  }: {
    question: string;
    language: string;
    findings: ReadonlyArray<{ text: string }>;
    engineSummary: string;
    answerSpan: string | null;
  },
): string {
  const words = (text: string) => ` ${nameKey(text)} `;
  const backed = summarySentences(summary).filter((sentence) => {
    const cited = findingCitations(sentence).map((c) => findings[c.number - 1]?.text ?? '');
    const source = words([question, ...cited].join(' '));
    // Names as the language writes them (in German, whose nouns are all capitalised, names of several words).
    const said = sentence.replace(/\[F\d+\]/gu, ' ');
    const stated = [...questionNames(said, language), ...[...numberSpans(said), ...dateSpans(said)].map((s) => s.text)];
    return stated.every((text) => source.includes(words(text)));
  });
  const first = backed[0] ?? '';
  const states = answerSpan === null || words(first).includes(words(answerSpan));
  if (states && backed.length > 0) return backed.join(' ');
  const engineFirst = summarySentences(engineSummary)[0] ?? '';
  return [engineFirst, ...backed.filter((s) => s !== engineFirst)].join(' ').trim();
}
