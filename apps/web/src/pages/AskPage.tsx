export function AskPage() {
  return <h1>Ask</h1>;
}
