// GET {scribe_url}/templates/all: the built-in note templates, one published page at a time.
import type { TemplateWire } from '../../shared/service/wire.ts';
import type { Router } from '../http.ts';
import { TEMPLATES } from '../templates.ts';
import { page, serve, signedInUser, type ServerParts } from './common.ts';

export function templateRoutes(router: Router, parts: ServerParts): void {
  const { auth } = parts;

  serve(router, 'templates', async (ctx) => {
    await signedInUser(auth, ctx);
    const all: TemplateWire[] = TEMPLATES.map(({ public_id, name, description }) => ({ public_id, name, description }));
    return { body: page(all, ctx.url) };
  });
}
