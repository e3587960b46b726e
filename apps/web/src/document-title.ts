import { useEffect } from 'react';

/** The service's name, last in every tab title, so a tab reads by what it shows first. */
export const SITE_NAME = 'Research';

/** "Runs — Research"; the bare name for an empty title. */
export function documentTitle(title: string): string {
  const shown = title.replace(/\s+/g, ' ').trim();
  return shown ? `${shown} — ${SITE_NAME}` : SITE_NAME;
}

/** Names the tab after what the page shows (a run's question, the runs list) while it shows it. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
