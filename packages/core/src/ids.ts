const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID; anything else must never reach Postgres (a uuid cast error would be a 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
