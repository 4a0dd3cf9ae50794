export function App() {
  return (
    <main>
      <h1>Vet Scribe</h1>
    </main>
  );
}
