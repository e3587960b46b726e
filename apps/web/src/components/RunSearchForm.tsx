import { useEffect, useState, type FormEvent } from 'react';
import { hrefOf, navigate, type Route } from '../router';
import './RunSearchForm.css';

/** The runs list's page `page`, of the search `q` when there is one. */
export function runsPage(page: number, q?: string): Route {
  return q ? { name: 'runs', page, q } : { name: 'runs', page };
}

/** How many runs a search found, above its table (read out when it changes). */
export function SearchSummary({ q, total }: { q: string; total: number }) {
  return (
    <p className="hint" aria-live="polite">
      {total === 0 ? `No run matches “${q}”.` : `${total} ${total === 1 ? 'run matches' : 'runs match'} “${q}”.`}
    </p>
  );
}

/**
 * The runs list's search box: words of a question or a report (GET /v1/research?q=…). A search is a place of its
 * own (#/runs?q=…), so the back button and a shared link find it again; an empty box lists every run.
 */
export function RunSearchForm({ q }: { q?: string }) {
  const [text, setText] = useState(q ?? '');
  // Another place's search (the back button) shows its own words.
  useEffect(() => setText(q ?? ''), [q]);
  function search(event: FormEvent) {
    event.preventDefault();
    const words = text.trim();
    navigate(runsPage(1, words || undefined));
  }
  return (
    <form role="search" aria-label="Runs" className="run-search" onSubmit={search}>
      <label htmlFor="run-search-q">Search runs</label>
      <div className="run-search-row">
        <input
          id="run-search-q"
          type="search"
          value={text}
          maxLength={200}
          aria-describedby="run-search-hint"
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">Search</button>
        {q && <a href={hrefOf({ name: 'runs', page: 1 })}>All runs</a>}
      </div>
      <p id="run-search-hint" className="hint">
        Words of a question or of its report; “a phrase”, or, -word.
      </p>
    </form>
  );
}
