export function SignIn() {
  return <section><h1>SignIn</h1></section>;
}
