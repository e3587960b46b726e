/** Removes characters Postgres refuses in text columns (NUL) so client input can never reach a 500. */
export function stripNul(value: string): string {
  return value.includes('\u0000') ? value.replace(/\u0000/g, '') : value;
}

/** Collapses runs of whitespace to one space and trims: how evidence spans are compared with source text. */
export function normalizeWhitespace(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
