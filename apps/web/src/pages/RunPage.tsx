export function RunPage({ id }: { id: string }) {
  return <h1>Run {id}</h1>;
}
