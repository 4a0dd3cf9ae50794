// The double's HTML: its sign-in page (username and password of a seeded vet, "Sign in and
// allow" or "Cancel", the pending request named by an id the server holds, so the form carries
// no OAuth parameter a page could alter) and the pages of a refused sign-in.
import { escapeHtml } from './wire.ts';

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Provet Cloud (sandbox)</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1b2733}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.error{color:#a01818}.hint{color:#56616b;font-size:.9rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function signInPage(requestId: string, appName: string, instanceName: string, error: string | null): string {
  return page(
    'Sign in to Provet Cloud',
    `<p><strong>${escapeHtml(appName)}</strong> asks to use ${escapeHtml(instanceName)} with your own Provet permissions.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<input type="hidden" name="request_id" value="${escapeHtml(requestId)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" name="action" value="allow">Sign in and allow</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>
<p class="hint">This is the sandbox's stand-in for Provet Cloud. Its vets: hale / provet-demo (Dr Alex Hale), moreno / provet-colleague (Dr Sam Moreno).</p>`,
  );
}
