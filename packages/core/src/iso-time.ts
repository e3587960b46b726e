/** A time as the API writes it: ISO 8601 UTC (`2026-11-21T09:00:00.000Z`), from a Date or a stored string. */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
