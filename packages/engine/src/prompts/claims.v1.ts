import { z } from 'zod';
import { CLAIM_TYPES } from '@research/core';

/** Claim extraction prompt, version 1: atomic claims of one passage, each with a verbatim quote. */
export const version = 'claims.v1';
export const name = 'claims';

export const schema = z.object({
  claims: z
    .array(
      z.object({
        claim_text: z.string().min(5).max(600),
        evidence_span: z.string().min(5).max(1200),
        claim_type: z.enum(CLAIM_TYPES),
        confidence: z.number().min(0).max(1),
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
