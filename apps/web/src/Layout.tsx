import { useEffect, useRef, type ReactNode } from 'react';
import { hrefOf, type Route } from './router';
import { useSession } from './session-context';
import './styles.css';

const PLACES: { label: string; route: Route; adminOnly?: true }[] = [
  { label: 'Ask', route: { name: 'ask' } },
  { label: 'Runs', route: { name: 'runs', page: 1 } },
  { label: 'Collections', route: { name: 'collections' } },
  { label: 'Admin', route: { name: 'admin' }, adminOnly: true },
];

function isCurrent(place: Route, route: Route): boolean {
  return (
    place.name === route.name ||
    (place.name === 'runs' && route.name === 'run') ||
    (place.name === 'collections' && route.name === 'collection')
  );
}

export function Layout({ route, children }: { route: Route; children: ReactNode }) {
  const { isAdmin, signOut } = useSession();
  const main = useRef<HTMLElement>(null);
  // A new place moves the keyboard focus to its content, as a page load would.
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [route.name]);
  return (
    <>
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header className="site-header">
        <span className="brand">Research</span>
        <nav aria-label="Main">
          <ul>
            {PLACES.filter((p) => !p.adminOnly || isAdmin).map((p) => (
              <li key={p.label}>
                <a href={hrefOf(p.route)} aria-current={isCurrent(p.route, route) ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="secondary" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
