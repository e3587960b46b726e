import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { ApiClient } from '../api/client';
import { errorText } from '../api/client';
import {
  deleteCollection,
  deleteDocument,
  getCollection,
  listDocuments,
  searchCollection,
  uploadDocument,
  type CollectionDocument,
  type CollectionSearch,
} from '../api/collections';
import { documentsCount } from '../components/CollectionsChoice';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LocalTime } from '../components/LocalTime';
import { StatusLine } from '../components/StatusLine';
import { WideTable } from '../components/WideTable';
import { useDocumentTitle } from '../document-title';
import { hrefOf, navigate } from '../router';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';
import './CollectionsPage.css';

const PAGE = { offset: 0, limit: 100 };

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;
}

/** The upload of one file; `onAdded` with its title once stored. */
function UploadForm({ api, id, onAdded }: { api: ApiClient; id: string; onAdded: (title: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  async function upload(event: FormEvent) {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) {
      setError('Choose a file to upload.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const doc = await uploadDocument(api, id, chosen);
      if (file.current) file.current.value = '';
      onAdded(doc.title);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="collection-form" onSubmit={upload} noValidate>
      <h2>Add a document</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <label htmlFor="collection-file">File (PDF, HTML, Markdown or text; at most 5 MiB)</label>
      <input
        id="collection-file"
        ref={file}
        type="file"
        accept=".pdf,.html,.htm,.md,.markdown,.txt,application/pdf,text/html,text/markdown,text/plain"
      />
      <button type="submit" disabled={busy} aria-busy={busy || undefined}>
        Upload
      </button>
    </form>
  );
}

/** The collection's full-text search and its results. */
function SearchBox({ api, id }: { api: ApiClient; id: string }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<CollectionSearch | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function search(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      setFound(await searchCollection(api, id, query));
    } catch (e) {
      setFound(null);
      setError(errorText(e));
    }
  }
  return (
    <>
      <form className="collection-search" role="search" onSubmit={search}>
        <label htmlFor="collection-query">Search this collection</label>
        <div className="collection-search-row">
          <input id="collection-query" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit">Search</button>
        </div>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {found && (
        <section aria-label="Search results">
          <h2>{found.total === 0 ? `Nothing found for “${found.query}”` : `Found for “${found.query}”`}</h2>
          <ol className="collection-results">
            {found.results.map((r) => (
              <li key={r.document_id}>
                <strong>{r.title}</strong> <span className="hint">({r.filename})</span>
                <p>{r.snippet}</p>
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}

/** The documents, each with its delete button when the caller may change the collection. */
function DocumentsTable({
  documents,
  own,
  onDelete,
}: {
  documents: readonly CollectionDocument[];
  own: boolean;
  onDelete: (doc: CollectionDocument) => void;
}) {
  if (documents.length === 0) return <p>No documents yet.</p>;
  return (
    <WideTable<CollectionDocument>
      caption="Files in this collection"
      rows={documents}
      rowKey={(d) => d.document_id}
      columns={[
        { label: 'Title', cell: (d) => d.title },
        { label: 'File', cell: (d) => `${d.filename} · ${kib(d.bytes)}` },
        { label: 'SHA-256', cell: (d) => <code title={d.content_sha256}>{d.content_sha256.slice(0, 12)}…</code> },
        { label: 'Added', cell: (d) => <LocalTime iso={d.created_at} /> },
        {
          label: 'Actions',
          cell: (d) =>
            own && (
              <button type="button" className="secondary" onClick={() => onDelete(d)}>
                Delete <span className="visually-hidden">{d.title}</span>
              </button>
            ),
        },
      ]}
    />
  );
}

/** One collection: its documents, an upload, a search, and deleting it. */
export function CollectionPage({ id }: { id: string }) {
  const { api } = useSession();
  const loadCollection = useCallback((signal: AbortSignal) => getCollection(api, id, signal), [api, id]);
  const collection = useResource(loadCollection);
  const loadDocuments = useCallback((signal: AbortSignal) => listDocuments(api, id, PAGE, signal), [api, id]);
  const documents = useResource(loadDocuments);
  useDocumentTitle(collection.data?.name ?? 'Collection');
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<CollectionDocument | 'collection' | null>(null);
  const own = collection.data?.owner === 'user';
  const reload = () => {
    documents.reload();
    collection.reload();
  };

  const back = (
    <a href={hrefOf({ name: 'collections' })} className="collection-back">
      All collections
    </a>
  );
  if (collection.error && !collection.data) {
    return (
      <>
        <h1>Collection</h1>
        <p role="alert" className="error">
          {collection.error}
        </p>
        <p>{back}</p>
      </>
    );
  }
  const data = collection.data;
  return (
    <>
      <h1>{data?.name ?? 'Collection'}</h1>
      <p className="hint">
        {back}
        {data && ` · ${documentsCount(data.document_count)} · indexed as ${data.text_search_config}`}
      </p>
      <StatusLine message={status} />
      {own && <UploadForm api={api} id={id} onAdded={(title) => (setStatus(`“${title}” added.`), reload())} />}
      <SearchBox api={api} id={id} />
      <h2>Documents</h2>
      {documents.error && (
        <p role="alert" className="error">
          {documents.error}
        </p>
      )}
      {documents.data === null ? (
        documents.loading && <p>Loading the documents…</p>
      ) : (
        <DocumentsTable documents={documents.data.items} own={own} onDelete={(d) => (setStatus(''), setRemoving(d))} />
      )}
      {own && (
        <p>
          <button type="button" className="danger" onClick={() => setRemoving('collection')}>
            Delete collection
          </button>
        </p>
      )}
      {removing && (
        <ConfirmDialog
          title={removing === 'collection' ? 'Delete this collection?' : 'Delete this document?'}
          confirmLabel={removing === 'collection' ? 'Delete collection' : 'Delete document'}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            if (removing === 'collection') {
              await deleteCollection(api, id);
              navigate({ name: 'collections' });
              return;
            }
            await deleteDocument(api, id, removing.document_id);
            setRemoving(null);
            setStatus(`“${removing.title}” deleted.`);
            reload();
          }}
        >
          <p>
            {removing === 'collection'
              ? 'Its documents are removed. Runs that cited them keep their sources.'
              : `“${removing.title}” is removed. Runs that cited it keep their source.`}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
