import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiClient, ApiError } from './api/client';
import { listHiddenRuns } from './api/research';
import { Layout } from './Layout';
import { AdminPage } from './pages/AdminPage';
import { AskPage } from './pages/AskPage';
import { CollectionPage } from './pages/CollectionPage';
import { CollectionsPage } from './pages/CollectionsPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { RunPage } from './pages/RunPage';
import { RunsPage } from './pages/RunsPage';
import { SignInPage } from './pages/SignInPage';
import { useRoute, type Route } from './router';
import { forgetKey, storedKey, storeKey } from './session';
import { SessionContext, type Session } from './session-context';

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'ask':
      return <AskPage />;
    case 'runs':
      return <RunsPage page={route.page} q={route.q} />;
    case 'run':
      return <RunPage id={route.id} />;
    case 'admin':
      return <AdminPage />;
    case 'collections':
      return <CollectionsPage />;
    case 'collection':
      return <CollectionPage id={route.id} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

export function App() {
  const [key, setKey] = useState<string | null>(() => storedKey());
  const [notice, setNotice] = useState<string | null>(null);
  const [isAdmin, setIsAdmin] = useState<boolean | null>(null);
  const route = useRoute();

  const signOut = useCallback((message?: string) => {
    forgetKey();
    setKey(null);
    setIsAdmin(null);
    setNotice(message ?? null);
  }, []);

  const api = useMemo(
    () =>
      key === null
        ? null
        : new ApiClient(key, (detail) => signOut(`Your API key is no longer accepted (${detail}). Sign in again.`)),
    [key, signOut],
  );

  // Whether to show the administrators' page: the admin list answers 403 to everyone else.
  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    listHiddenRuns(api, controller.signal).then(
      () => setIsAdmin(true),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 403) setIsAdmin(false);
      },
    );
    return () => controller.abort();
  }, [api]);

  if (!api) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(newKey) => {
          storeKey(newKey);
          setNotice(null);
          setKey(newKey);
        }}
      />
    );
  }
  const session: Session = { api, isAdmin, signOut };
  return (
    <SessionContext.Provider value={session}>
      <Layout route={route}>
        <Page route={route} />
      </Layout>
    </SessionContext.Provider>
  );
}
