import { useEffect, useState } from 'react';

/**
 * The page's places, kept in the URL's hash so the API's own paths never meet them and a reload or a
 * shared link opens the same place (never with the key: that stays in session storage).
 */
export type Route =
  | { name: 'ask' }
  | { name: 'runs'; page: number; q?: string }
  | { name: 'run'; id: string }
  | { name: 'admin' }
  | { name: 'collections' }
  | { name: 'collection'; id: string }
  | { name: 'not-found' };

/** `#/collections` and `#/collections/<id>`. */
function collectionsRoute(parts: string[]): Route {
  if (parts.length === 1) return { name: 'collections' };
  return parts.length === 2 && parts[1] ? { name: 'collection', id: parts[1] } : { name: 'not-found' };
}

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts[0] === 'ask' && parts.length === 1)) return { name: 'ask' };
  if (parts[0] === 'runs' && parts.length === 1) {
    const params = new URLSearchParams(query);
    const page = Number(params.get('page') ?? '1');
    const q = params.get('q')?.trim();
    return { name: 'runs', page: Number.isInteger(page) && page >= 1 ? page : 1, ...(q ? { q } : {}) };
  }
  if (parts[0] === 'runs' && parts.length === 2 && parts[1]) return { name: 'run', id: parts[1] };
  if (parts[0] === 'admin' && parts.length === 1) return { name: 'admin' };
  if (parts[0] === 'collections') return collectionsRoute(parts);
  return { name: 'not-found' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'ask':
      return '#/ask';
    case 'runs': {
      const params = new URLSearchParams();
      if (route.q) params.set('q', route.q);
      if (route.page > 1) params.set('page', String(route.page));
      const query = params.toString();
      return query ? `#/runs?${query}` : '#/runs';
    }
    case 'run':
      return `#/runs/${encodeURIComponent(route.id)}`;
    case 'admin':
      return '#/admin';
    case 'collections':
      return '#/collections';
    case 'collection':
      return `#/collections/${encodeURIComponent(route.id)}`;
    case 'not-found':
      return '#/';
  }
}

export function navigate(route: Route): void {
  window.location.hash = hrefOf(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
