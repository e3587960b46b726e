import { z } from 'zod';
import { CLAIM_TYPES } from '@research/core';

/** Image analysis prompt, version 1: a factual description and the claims it supports, quoted from it. */
export const version = 'vision.v1';
export const name = 'image_analysis';

export const schema = z.object({
  description: z.string().min(1).max(4000),
  claims: z
    .array(
      z.object({
        claim_text: z.string().min(3).max(600),
        evidence_span: z.string().min(3).max(1200),
        claim_type: z.enum(CLAIM_TYPES),
        confidence: z.number().min(0).max(1),
      }),
    )
    .max(12),
});
export type VisionAnswer = z.infer<typeof schema>;

export const system = [
  'You describe an image for evidence research. Describe only what is visible: objects, people, text shown in',
  'the image (quoted exactly), numbers, charts and their values, places and dates when they are written.',
  'Then list atomic, verifiable claims the image supports. Each evidence_span must be copied character for',
  'character from your description. claim_type is fact, opinion, prediction, recommendation or claim;',
  'confidence (0 to 1) is how clearly the image shows it. Never guess identities of people.',
].join('\n');

export function user(vars: { prompt: string | null; language: string }): string {
  return [
    `Language of the description: ${vars.language}`,
    vars.prompt ? `The user asks: ${vars.prompt}` : 'Describe the image.',
  ].join('\n');
}
