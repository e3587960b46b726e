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
 * The next hop's queries, read from the pages the run read: with an LLM, the model reads their sentences closest
 * to the question (questionSentences) and names what the question needs but does not name (one call); its
 * queries are kept only when they add a word to the question, each weighted by its place (1, 1/2, …), and the
 * room it leaves goes to linkingNames' names. Without one, or when the call fails, linkingNames. Aborts and
 * non-LLM errors propagate.
 */
export async function planBridge(
  llm: LlmClient | null,
  ctx: LlmCallContext,
  input: BridgeInput,
): Promise<BridgeResult> {
  const pause = createPause();
  const extractive = async (): Promise<BridgeResult> => ({
    queries: await linkingNames({ ...input, pages: input.sources, pause }),
    mode: 'extractive',
  });
  if (!llm || input.limit < 1 || input.sources.length === 0) return extractive();
  const sentences = (await questionSentences(input.question, input.language, input.sources, pause))
    .slice(0, LLM_SENTENCES)
    .map((s) => s.text);
  if (sentences.length === 0) return extractive();
  let chars = 0;
  const shown = sentences.filter((s) => (chars += s.length) <= LLM_SENTENCE_CHARS);
  const questionTerms = termSet(input.question);
  try {
    const answer = await llm.complete(ctx, {
      name: bridgePrompt.name,
      system: bridgePrompt.system,
      user: bridgePrompt.user({ query: input.question, sentences: shown, limit: input.limit }),
      schema: bridgePrompt.schema,
      maxTokens: 300,
    });
    const queries = answer.queries
      .map((q) => q.trim())
      .filter((q) => [...termSet(q, false)].some((t) => !questionTerms.has(t)))
      .slice(0, input.limit)
      .map((name, i) => ({ name, weight: 1 / (1 + i), query: name }));
    // The model adds to the names the pages give, never takes from them: the room it leaves goes to the engine's.
    const proposed = new Set(queries.map((q) => q.name.toLowerCase()));
    const engine = (await linkingNames({ ...input, pages: input.sources, pause })).filter(
      (n) => !proposed.has(n.name.toLowerCase()),
    );
    return { queries: [...queries, ...engine].slice(0, input.limit), mode: 'llm' };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    return { ...(await extractive()), fallback: error.kind, fallbackReason: error.message };
  }
}
