import { useCallback } from 'react';
import { listCollections } from '../api/collections';
import { startResearch } from '../api/research';
import { AskForm } from '../components/AskForm';
import { DepthEstimate } from '../components/DepthEstimate';
import { useDocumentTitle } from '../document-title';
import { navigate } from '../router';
import { useSession } from '../session-context';
import { useResource } from '../use-resource';

/** Ask a question: the run starts and the page moves to it. */
export function AskPage() {
  const { api } = useSession();
  useDocumentTitle('Ask a question');
  const loadCollections = useCallback(
    (signal: AbortSignal) => listCollections(api, { offset: 0, limit: 100 }, signal),
    [api],
  );
  const collections = useResource(loadCollections);
  return (
    <>
      <h1>Ask a question</h1>
      <AskForm
        collections={collections.data?.items ?? []}
        onStart={async (request) => {
          const run = await startResearch(api, request);
          navigate({ name: 'run', id: run.research_id });
        }}
        depthNote={(depth) => <DepthEstimate api={api} depth={depth} />}
      />
    </>
  );
}
