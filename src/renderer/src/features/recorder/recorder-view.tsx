export function RecorderView() {
  return <section><h1>RecorderView</h1></section>;
}
