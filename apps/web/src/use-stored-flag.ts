import { useCallback, useState } from 'react';

function read(key: string, fallback: boolean): boolean {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? fallback : stored === 'true';
  } catch {
    return fallback;
  }
}

/**
 * A yes/no choice of the reader (show the scores) kept in this browser's local storage, so the next report
 * opens as they left the last one; where storage is refused, it lasts as long as the page.
 */
export function useStoredFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key, fallback));
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        localStorage.setItem(key, String(next));
      } catch {
        // Storage refused (a private window's quota, a policy): the choice holds for this page only.
      }
    },
    [key],
  );
  return [value, set];
}
