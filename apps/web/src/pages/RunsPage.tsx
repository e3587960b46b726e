export function RunsPage({ page }: { page: number }) {
  return <h1>Runs (page {page})</h1>;
}
