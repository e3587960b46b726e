import { useDocumentTitle } from '../document-title';
import { hrefOf } from '../router';

export function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        This page does not exist. <a href={hrefOf({ name: 'ask' })}>Ask a question</a> or{' '}
        <a href={hrefOf({ name: 'runs', page: 1 })}>see the runs</a>.
      </p>
    </>
  );
}
