import { z } from 'zod';

/** Second-hop prompt, version 1: what to search next, read from the pages a round found for the question. */
export const version = 'bridge.v1';
export const name = 'bridge_queries';

export const schema = z.object({
  queries: z.array(z.string().min(2).max(120)).max(4),
});
export type BridgeAnswer = z.infer<typeof schema>;

export const system = [
  'You help research a question in two steps. You are given the question and the sentences the first',
  'searches found that come closest to it. Name what the question needs but does not name itself and these',
  'sentences do: the person, work, place, organisation or event that links the question to its answer (for',
  '"Where was the director of film X born?": the director named in a sentence about film X). Return a JSON',
  'object {"queries": [...]}: at most the number asked for, each a short search query (usually the name',
  'alone), best first; an empty list when the sentences name nothing the question needs. Never answer the',
  'question yourself and never name anything the sentences do not.',
].join('\n');

export function user(vars: { query: string; sentences: readonly string[]; limit: number }): string {
  return [
    `Question: ${vars.query}`,
    `Queries wanted: at most ${vars.limit}`,
    'Sentences:',
    ...vars.sentences.map((s, i) => `${i + 1}. ${s}`),
  ].join('\n');
}
