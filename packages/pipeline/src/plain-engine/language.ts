/** German for German runs (the service's default language), English otherwise. */
export function isGerman(language: string | null | undefined): boolean {
  return (language ?? '').toLowerCase().startsWith('de');
}
