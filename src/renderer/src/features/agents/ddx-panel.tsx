export function DdxPanel({ prefill }: { prefill?: string | undefined }) {
  return <section><h1>Differentials {prefill}</h1></section>;
}
