/** A 422 detail read as the field it names: `include_domains.2: must be …` names `include_domains`, entry 3. */
export interface FieldProblem {
  /** The request field, e.g. `include_domains`. */
  field: string;
  /** The text to show beside that field. */
  message: string;
}

const DETAIL = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*): (.+)$/s;

/** The field a `<field>: <reason>` detail names, when it is one of `fields`; null for any other detail. */
export function fieldProblemOf(detail: string, fields: readonly string[]): FieldProblem | null {
  const match = DETAIL.exec(detail);
  if (!match) return null;
  const [, field = '', rest = '', reason = ''] = match;
  if (!fields.includes(field)) return null;
  // The API counts list entries from 0; a reader counts from 1.
  const entry = /^\.(\d+)$/.exec(rest);
  return { field, message: entry ? `Entry ${Number(entry[1]) + 1}: ${reason}` : reason };
}
