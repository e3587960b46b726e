import { createPause, LlmFailure, type LlmCallContext, type LlmClient, type LlmFailureKind } from '@research/core';
import * as bridgePrompt from '../prompts/bridge.v1';
import { linkingNames, questionSentences, type LinkingName, type ReadPage } from '../retrieval/linking-names';
import { termSet } from '../text/tokens';

export interface BridgeInput {
  question: string;
  language: string;
  /** The pages the run read, in the order it read them. */
  sources: readonly ReadPage[];
  /** Names searched already (as subjectKeys): not proposed again. */
  searched: ReadonlySet<string>;
  /** Queries wanted at most. */
  limit: number;
}

/** Sentences the model is shown at most, and their characters. */
const LLM_SENTENCES = 12;
const LLM_SENTENCE_CHARS = 6_000;

export interface BridgeResult {
  queries: LinkingName[];
  /** Who chose them. */
  mode: 'llm' | 'extractive';
  /** Set when the LLM was asked and failed (the extractive names were used instead). */
  fallback?: LlmFailureKind;
  fallbackReason?: string;
}

/**
 * The next hop's queries, read from the pages the run read: linkingNames' names first; with an LLM, when they
 * leave room under the limit, the model reads the pages' sentences closest to the question (questionSentences)
 * and names what the question needs but does not name (one call), and its names the engine did not give fill
 * that room (a model adds to what the pages give, never takes from it), each kept only when it adds a word to
 * the question and weighted by its place (1, 1/2, …). When the call fails, linkingNames' alone. Aborts and
 * non-LLM errors propagate.
 */
export async function planBridge(
  llm: LlmClient | null,
  ctx: LlmCallContext,
  input: BridgeInput,
): Promise<BridgeResult> {
  const pause = createPause();
  const engine = await linkingNames({ ...input, pages: input.sources, pause });
  if (!llm || engine.length >= input.limit || input.sources.length === 0)
    return { queries: engine, mode: 'extractive' };
  const sentences = (await questionSentences(input.question, input.language, input.sources, pause))
    .slice(0, LLM_SENTENCES)
    .map((s) => s.text);
  if (sentences.length === 0) return { queries: engine, mode: 'extractive' };
  let chars = 0;
  const shown = sentences.filter((s) => (chars += s.length) <= LLM_SENTENCE_CHARS);
  const questionTerms = termSet(input.question);
  const given = new Set(engine.map((n) => n.name.toLowerCase()));
  try {
    const answer = await llm.complete(ctx, {
      name: bridgePrompt.name,
      system: bridgePrompt.system,
      user: bridgePrompt.user({ query: input.question, sentences: shown, limit: input.limit }),
      schema: bridgePrompt.schema,
      maxTokens: 300,
    });
    const added = answer.queries
      .map((q) => q.trim())
      .filter((q) => [...termSet(q, false)].some((t) => !questionTerms.has(t)) && !given.has(q.toLowerCase()))
      .map((name, i) => ({ name, weight: 1 / (1 + i), query: name }));
    return { queries: [...engine, ...added].slice(0, input.limit), mode: 'llm' };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    return { queries: engine, mode: 'extractive', fallback: error.kind, fallbackReason: error.message };
  }
}
