/**
 * The primary language subtag of a run's language tag, lower-case: "de-AT" and "de_AT" give "de",
 * "pt-BR" gives "pt". Null when the tag does not start with 2 or 3 ASCII letters.
 */
export function primaryLanguage(language: string | null | undefined): string | null {
  const match = /^([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*$/i.exec((language ?? '').trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** The language subtag with its first region or script subtag, lower-case and hyphenated ("pt-br"). */
export function languageWithRegion(language: string | null | undefined): string | null {
  const match = /^([a-z]{2,3})(?:[-_]([a-z0-9]{2,8}))?(?:[-_][a-z0-9]{1,8})*$/i.exec((language ?? '').trim());
  if (!match) return null;
  return match[2] ? `${match[1]!.toLowerCase()}-${match[2].toLowerCase()}` : match[1]!.toLowerCase();
}
