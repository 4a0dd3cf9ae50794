export function SettingsView() {
  return <section><h1>SettingsView</h1></section>;
}
