export function AdminPage() {
  return <h1>Hidden runs</h1>;
}
