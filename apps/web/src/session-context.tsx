import { createContext, useContext } from 'react';
import type { ApiClient } from './api/client';

export interface Session {
  api: ApiClient;
  /** Whether the key's user is an administrator (null while the page has not found out yet). */
  isAdmin: boolean | null;
  signOut: (message?: string) => void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; only pages under the signed-in layout call it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
