/** An ISO time in the reader's locale and time zone (or the given ones); the text itself when not a time. */
export function formatLocalTime(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** A time as the reader's clock shows it, with the exact instant kept in `dateTime`. */
export function LocalTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatLocalTime(iso)}</time>;
}
