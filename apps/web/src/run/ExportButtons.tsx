import { useState } from 'react';
import { errorText, runPath, type ApiClient } from '../api/client';

const FORMATS = [
  { label: 'Download Markdown', format: 'markdown', accept: 'text/markdown', ext: 'md' },
  { label: 'Download HTML', format: 'html', accept: 'text/html', ext: 'html' },
  { label: 'Download PDF', format: 'pdf', accept: 'application/pdf', ext: 'pdf' },
] as const;

/** Saves a blob under `name` through a temporary link (the key never goes into a URL). */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns: let the download start before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The report's exports, fetched with the key and saved as files. */
export function ExportButtons({ api, id }: { api: ApiClient; id: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(f: (typeof FORMATS)[number]) {
    setBusy(f.format);
    setError(null);
    try {
      const response = await api.fetch('GET', runPath(id, `/report?format=${f.format}`), { accept: f.accept });
      save(await response.blob(), `research-${id}.${f.ext}`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="exports">
      <div className="export-buttons" role="group" aria-label="Export the report">
        {FORMATS.map((f) => (
          <button
            key={f.format}
            type="button"
            className="secondary"
            disabled={busy !== null}
            onClick={() => download(f)}
          >
            {f.label}
          </button>
        ))}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
