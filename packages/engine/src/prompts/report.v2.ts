import { z } from 'zod';

/**
 * Report prompt, version 2: the summary and the wording of findings that the engine already chose. Since
 * version 2 the summary opens with the answer to the question when the findings give it.
 */
export const version = 'report.v2';
export const name = 'report';

export const schema = z.object({
  summary: z.string().min(1).max(4000),
  findings: z.array(z.object({ number: z.number().int().min(1), text: z.string().min(3).max(600) })),
});
export type ReportAnswer = z.infer<typeof schema>;

export const system = [
  'You write the summary of a research report from numbered findings that were extracted from sources.',
  "The summary's first sentence answers the question directly when the findings give the answer (a name, a",
  'date, a number, yes or no), citing the findings that give it; when they do not, it says that the findings',
  'do not answer it, and what they do say.',
  'Use only the findings given; add no outside knowledge. Every sentence of the summary that states a fact',
  'ends with the numbers of the findings it comes from in square brackets, e.g. "… [1][3]." Mention the',
  "disagreements listed. For findings, you may restate each finding's text more clearly (same facts, same",
  'language as the report); keep its number. Write in the requested language.',
].join('\n');

export function user(vars: {
  question: string;
  language: string;
  findings: Array<{ number: number; text: string; sources: number; confidence: number }>;
  disagreements: string[];
}): string {
  return [
    `Question: ${vars.question}`,
    `Language of the report: ${vars.language}`,
    'Findings:',
    ...vars.findings.map(
      (f) => `[${f.number}] ${f.text} (sources: ${f.sources}, confidence: ${f.confidence.toFixed(2)})`,
    ),
    vars.disagreements.length ? 'Disagreements:' : '',
    ...vars.disagreements.map((d) => `- ${d}`),
  ]
    .filter(Boolean)
    .join('\n');
}
