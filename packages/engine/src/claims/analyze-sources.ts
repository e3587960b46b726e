import { createPause, LlmFailure, type ClaimDraft, type LlmCallContext, type LlmClient } from '@research/core';
import { stableId } from '../ids';
import * as claimsPrompt from '../prompts/claims.v2';
import { chunkText } from './chunking';
import { claimTextOf } from './claim-text';
import { CLAIMS_PER_SOURCE, extractClaims, type PlanTerms } from './extractive-claims';
import { prepareGrounding } from './grounding';
import { statementCheck } from './statements';

/** LLM chunks analysed per source at most; the rest of a long source goes to the extractive engine. */
export const MAX_LLM_CHUNKS_PER_SOURCE = 4;
/** Claims kept per passage of a source an LLM may read (the stored claims are capped by fitClaimCaps). */
export const MAX_LLM_CLAIMS_PER_SOURCE = 12;

/** Characters of a quote looked up in its passage to find the line (block) it stands in. */
const QUOTE_PREFIX = 60;

/** The parts of a source claim extraction reads. */
export interface AnalyzableSource {
  id: string;
  url: string;
  title: string | null;
  content: string;
}

export interface AnalyzeSourcesInput {
  runId: string;
  question: string;
  subQuestions: readonly string[];
  language: string;
  terms: PlanTerms;
  sources: readonly AnalyzableSource[];
  /** LLM requests this call may start (the rest of the passages go to the extractive engine). */
  llmAllowance: number;
}

export interface AnalyzeSourcesResult {
  claims: ClaimDraft[];
  /** `llm`, `extractive` or `mixed`: which engine read the passages. */
  mode: 'llm' | 'extractive' | 'mixed';
  /** Passages the extractive engine read instead of the LLM, by reason (budget, context, http, …). */
  fallbacks: Map<string, number>;
  /** LLM claims dropped because their evidence span is not in the source. */
  ungrounded: number;
}

/**
 * Claim extraction over sources: with an LLM, each source is cut into passages that fit the context
 * budget and the first MAX_LLM_CHUNKS_PER_SOURCE passages (within `llmAllowance`) are read by the LLM,
 * keeping only claims whose evidence span is grounded in the source; every other passage, and every
 * passage whose LLM call fails, is read by the extractive engine. Without an LLM the whole source is
 * read extractively. The pipeline's analyze step and `POST /research/{id}/claims` both call this. Long
 * texts are read a slice at a time: the event loop is never held for long, whatever the sources' size.
 */
export async function analyzeSources(
  llm: LlmClient | null,
  ctx: LlmCallContext & { logger?: { warn(message: string, meta?: object): unknown } },
  input: AnalyzeSourcesInput,
): Promise<AnalyzeSourcesResult> {
  const { runId, language, terms } = input;
  const fallbacks = new Map<string, number>();
  const pause = createPause();
  if (!llm) {
    const claims: ClaimDraft[] = [];
    for (const s of input.sources)
      claims.push(...(await extractClaims({ runId, sourceId: s.id, text: s.content, language, terms }, pause)));
    return { claims, mode: 'extractive', fallbacks, ungrounded: 0 };
  }

  // Chunk sizes leave room for the instructions and the question in every prompt.
  const framing =
    claimsPrompt.system.length +
    claimsPrompt.user({ question: input.question, subQuestions: input.subQuestions, title: '', passage: '' }).length +
    200;
  const chunkChars = ctx.budget.max_context_per_llm_call - framing;
  let llmAllowance = Math.max(0, input.llmAllowance);
  const work: Array<Array<{ source: AnalyzableSource; text: string; chunks: number; useLlm: boolean }>> = [];
  for (const source of input.sources) {
    const chunks = await chunkText(source.content, chunkChars, language, pause);
    work.push(
      chunks.map((text, i) => {
        const useLlm = chunkChars >= 200 && i < MAX_LLM_CHUNKS_PER_SOURCE && llmAllowance > 0;
        if (useLlm) llmAllowance--;
        return { source, text, chunks: chunks.length, useLlm };
      }),
    );
  }
  const addFallback = (kind: string) => fallbacks.set(kind, (fallbacks.get(kind) ?? 0) + 1);
  let llmChunks = 0;
  let extractiveChunks = 0;
  let ungrounded = 0;

  const perSource = await Promise.all(
    work.map(async (chunks) => {
      // The whole source is prepared once, when a span is not found in its own chunk.
      const wholeSource = chunks[0] ? prepareGrounding(chunks[0].source.content, language, pause) : null;
      const results = await Promise.all(
        chunks.map(async ({ source, text, chunks: count, useLlm }): Promise<ClaimDraft[]> => {
          const sentences = () =>
            extractClaims(
              {
                runId,
                sourceId: source.id,
                text,
                language,
                terms,
                limit: Math.max(2, Math.ceil(CLAIMS_PER_SOURCE / count)),
              },
              pause,
            );
          const extractive = () => {
            extractiveChunks++;
            return sentences();
          };
          if (!useLlm) {
            if (chunkChars < 200) addFallback('context');
            else addFallback('budget');
            return extractive();
          }
          try {
            const answer = await llm.complete(ctx, {
              name: claimsPrompt.name,
              system: claimsPrompt.system,
              user: claimsPrompt.user({
                question: input.question,
                subQuestions: input.subQuestions,
                title: source.title ?? source.url,
                passage: text,
              }),
              schema: claimsPrompt.schema,
              maxTokens: 3000,
            });
            llmChunks++;
            const drafts: ClaimDraft[] = [];
            const passage = prepareGrounding(text, language, pause);
            // The same rule as the extractive engine's: a quote from a heading, a menu, a site or legal
            // notice or a reference entry is no claim, whatever the model made of it. A model may drop a
            // sentence's final stop when it quotes.
            const statement = statementCheck(text, { quoted: true });
            for (const c of answer.claims) {
              // Grounded in the chunk first (the passage the model read), then anywhere in the source.
              const span = (await passage.ground(c.evidence_span)) ?? (await wholeSource!.ground(c.evidence_span));
              if (!span) {
                ungrounded++;
                continue;
              }
              if (statement(span, text.indexOf(span.slice(0, QUOTE_PREFIX))) !== null) continue;
              const claimText = claimTextOf(c.claim_text);
              drafts.push({
                id: stableId(runId, source.id, span, claimText),
                source_id: source.id,
                claim_text: claimText,
                evidence_span: span,
                claim_type: c.claim_type,
                confidence: Math.round(c.confidence * 100) / 100,
                // The model's stance toward the question's proposition, asked in the same call.
                stance: c.stance ?? null,
              });
            }
            // The model adds to what the engine reads, never takes from it: the passage's sentences the engine
            // would keep and the model did not quote whole are claims too (a model may skip the sentence that
            // answers a question of two steps, which shares no word with it, or quote only a part of it).
            const quoted = drafts.map((d) => d.evidence_span);
            for (const c of await sentences()) if (!quoted.some((q) => q.includes(c.evidence_span))) drafts.push(c);
            return drafts;
          } catch (error) {
            if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
            addFallback(error.kind);
            ctx.logger?.warn('LLM claim extraction failed for a passage; using the extractive engine', {
              source_id: source.id,
              reason: error.message,
            });
            return extractive();
          }
        }),
      );
      const seen = new Set<string>();
      // MAX_CLAIMS_PER_SOURCE is applied where claims are stored (fitClaimCaps), beside what the source
      // already holds; this is the engine's own limit per passage an LLM may read.
      return results
        .flat()
        .filter((c) => !seen.has(c.id) && seen.add(c.id))
        .slice(0, MAX_LLM_CLAIMS_PER_SOURCE * Math.max(1, Math.min(chunks.length, MAX_LLM_CHUNKS_PER_SOURCE)));
    }),
  );
  const mode = llmChunks > 0 && extractiveChunks > 0 ? 'mixed' : llmChunks > 0 ? 'llm' : 'extractive';
  return { claims: perSource.flat(), mode, fallbacks, ungrounded };
}
