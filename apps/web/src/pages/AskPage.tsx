import { startResearch } from '../api/research';
import { AskForm } from '../components/AskForm';
import { DepthEstimate } from '../components/DepthEstimate';
import { useDocumentTitle } from '../document-title';
import { navigate } from '../router';
import { useSession } from '../session-context';

/** Ask a question: the run starts and the page moves to it. */
export function AskPage() {
  const { api } = useSession();
  useDocumentTitle('Ask a question');
  return (
    <>
      <h1>Ask a question</h1>
      <AskForm
        onStart={async (request) => {
          const run = await startResearch(api, request);
          navigate({ name: 'run', id: run.research_id });
        }}
        depthNote={(depth) => <DepthEstimate api={api} depth={depth} />}
      />
    </>
  );
}
