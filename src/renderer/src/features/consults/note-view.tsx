export function NoteView({ id }: { id: string }) {
  return <section><h1>Note {id}</h1></section>;
}
