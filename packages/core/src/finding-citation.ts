/**
 * How a report's texts cite its findings: `[F1]`, `[F2]`, the finding's number after an F, because `[1]` in the
 * exports and on the page is the first source. Reports stored before the F (their summaries cite finding n as
 * `[n]`) are read with `legacy`.
 */
export function findingCitation(number: number): string {
  return `[F${number}]`;
}

/** The finding citations of a text, each with the finding's number, where it stands and its length. */
export function findingCitations(
  text: string,
  { legacy = false }: { legacy?: boolean } = {},
): Array<{ number: number; index: number; length: number }> {
  const pattern = legacy ? /\[F?(\d{1,4})\]/gu : /\[F(\d{1,4})\]/gu;
  return [...text.matchAll(pattern)].map((m) => ({ number: Number(m[1]), index: m.index, length: m[0].length }));
}
