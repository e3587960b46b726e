import { z } from 'zod';
import { CLAIM_STANCES, CLAIM_TYPES } from '@research/core';

/**
 * Claim extraction prompt, version 2: atomic claims of one passage, each with a verbatim quote and its
 * stance toward the proposition the question states or asks about. Version 1 had no stance: its answers
 * still parse (a claim without a stance is judged by the lexical stance judge instead).
 */
export const version = 'claims.v2';
export const name = 'claims';

export const schema = z.object({
  claims: z
    .array(
      z.object({
        claim_text: z.string().min(5).max(600),
        evidence_span: z.string().min(5).max(1200),
        claim_type: z.enum(CLAIM_TYPES),
        confidence: z.number().min(0).max(1),
        // Sent as required (strict structured output); optional here so answers without it stay valid.
        stance: z.enum(CLAIM_STANCES).optional(),
      }),
    )
    .max(15),
});
export type ClaimsAnswer = z.infer<typeof schema>;

export const system = [
  'You extract atomic, verifiable claims from a passage of a source, for research on a question.',
  'Each claim states one checkable thing (numbers, dates, names, comparisons first) that bears on the question.',
  'evidence_span must be copied character for character from the passage: one or two whole sentences, no',
  'paraphrase, no ellipsis. claim_type is fact, opinion, prediction, recommendation or claim. confidence (0 to 1)',
  'is how clearly the passage states the claim. Return at most 12 claims; return an empty list when the passage',
  'says nothing relevant. Take claims from the running text only, never from headings, titles, menus, captions,',
  'bylines, cookie, legal or subscription notices, or reference-list entries. Write claim_text in the language of',
  'the passage.',
  'stance: when the question states a proposition, or asks whether one holds ("Is X rising?" asks about "X is',
  'rising"), say whether the claim supports it (says or implies it is true), refutes it (says or implies it is',
  'false, or states a different number, date or direction for the same thing) or is neutral (neither, or not',
  'about it). When the question asks for something (what, who, why, how) rather than proposing it, say neutral.',
].join('\n');

/** Characters the user message adds around the passage (for chunk sizing). */
export const OVERHEAD = 600;

export function user(vars: {
  question: string;
  subQuestions: readonly string[];
  title: string;
  passage: string;
}): string {
  return [
    `Question: ${vars.question}`,
    vars.subQuestions.length ? `Sub-questions: ${vars.subQuestions.slice(0, 6).join(' | ')}` : '',
    `Source: ${vars.title}`,
    'Passage:',
    '"""',
    vars.passage,
    '"""',
  ]
    .filter(Boolean)
    .join('\n');
}
