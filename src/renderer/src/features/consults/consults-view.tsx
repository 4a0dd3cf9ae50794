export function ConsultsView() {
  return <section><h1>ConsultsView</h1></section>;
}
