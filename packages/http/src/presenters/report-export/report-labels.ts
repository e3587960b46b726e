/** Citations as the formats write them after a text: `[1][3]`. */
export function citationMarks(numbers: readonly number[]): string {
  return numbers.map((n) => `[${n}]`).join('');
}

/** A finding's confidence for people, as the page shows it: `0.4` is `40 %`. */
export function confidenceText(confidence: number): string {
  return `${LABELS.confidence} ${Math.round(confidence * 100)} %`;
}

/** A time of the report for people: `2026-11-21 09:00 UTC` (empty for an empty time). */
export function readableTime(isoTime: string): string {
  return isoTime ? `${isoTime.slice(0, 10)} ${isoTime.slice(11, 16)} UTC` : '';
}

/** The headings and labels of an export (the report's own text is in the run's language). */
export const LABELS = {
  run: 'Research run',
  generated: 'generated',
  summary: 'Summary',
  findings: 'Findings',
  confidence: 'Confidence',
  disagreements: 'Disagreements',
  touches: 'Findings concerned',
  uncertainties: 'Uncertainties',
  methodology: 'Methodology',
  sources: 'Sources',
  retrieved: 'retrieved',
  untitled: '(untitled)',
} as const;
