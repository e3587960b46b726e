// The API key lives in this tab's session storage: gone when the tab closes, never in a URL or a cookie.
const KEY = 'research.apiKey';

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
