import { useCallback, useState, type FormEvent } from 'react';
import { errorText } from '../api/client';
import { createCollection, listCollections, type Collection } from '../api/collections';
import { LocalTime } from '../components/LocalTime';
import { REPORT_LANGUAGES, SEARCH_LANGUAGES } from '../components/languages';
import { WideTable } from '../components/WideTable';
import { useDocumentTitle } from '../document-title';
import { hrefOf, navigate } from '../router';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';
import './CollectionsPage.css';

// Collections of documents: the list with a form for a new one (CollectionPage.tsx shows one). A run searches the
// collections its Ask form names.

const PAGE = { offset: 0, limit: 100 };

/** Every collection the key may read, and a new one. */
export function CollectionsPage() {
  const { api } = useSession();
  useDocumentTitle('Collections');
  const load = useCallback((signal: AbortSignal) => listCollections(api, PAGE, signal), [api]);
  const collections = useResource(load);
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('en');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const created = await createCollection(api, { name, language: language || null });
      navigate({ name: 'collection', id: created.collection_id });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>Collections</h1>
      <p className="hint">
        Documents of your own (PDF, HTML, Markdown, text) that a run searches beside the web, or instead of it.
      </p>
      {collections.error && (
        <p role="alert" className="error">
          {collections.error}
        </p>
      )}
      {collections.data === null ? (
        collections.loading && <p>Loading the collections…</p>
      ) : collections.data.items.length === 0 ? (
        <p>No collections yet.</p>
      ) : (
        <WideTable<Collection>
          caption="Collections"
          rows={collections.data.items}
          rowKey={(c) => c.collection_id}
          columns={[
            {
              label: 'Name',
              cell: (c) => <a href={hrefOf({ name: 'collection', id: c.collection_id })}>{c.name}</a>,
            },
            { label: 'Documents', cell: (c) => c.document_count },
            { label: 'Language', cell: (c) => `${c.language ?? '–'} (${c.text_search_config})` },
            { label: 'Created', cell: (c) => <LocalTime iso={c.created_at} /> },
          ]}
        />
      )}
      <form className="collection-form" onSubmit={create} noValidate>
        <h2>New collection</h2>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <label htmlFor="collection-name">Name</label>
        <input id="collection-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="collection-language">Language of its documents</label>
        <select id="collection-language" value={language} onChange={(e) => setLanguage(e.target.value)}>
          <option value="">Any (words as written)</option>
          {[...REPORT_LANGUAGES, ...SEARCH_LANGUAGES].map((l) => (
            <option key={l.code} value={l.code}>{`${l.name} – ${l.code}`}</option>
          ))}
        </select>
        <button type="submit" disabled={busy} aria-busy={busy || undefined}>
          Create collection
        </button>
      </form>
    </>
  );
}
