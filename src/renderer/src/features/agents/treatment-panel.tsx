export function TreatmentPanel() {
  return <section><h1>TreatmentPanel</h1></section>;
}
