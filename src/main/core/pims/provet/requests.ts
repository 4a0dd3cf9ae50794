// One call to Provet's REST API with the vet's token, and what each answer means to the caller:
// 401 is a token to refresh, 403 a permission the vet's Provet user lacks, 400 a body refused
// with its reasons per field, 404 gone, 429 a wait Provet names in Retry-After, 5xx Provet's own
// trouble. Provet's error bodies are Django REST framework's: `{"detail": "…"}` or a field's name
// with its list of messages.
import { z } from 'zod';
import { retryAfterMs, send, type PimsHttpOptions } from '../http.ts';
import { PimsError } from '../port.ts';

const detailBody = z.object({ detail: z.string() });
const fieldErrorsBody = z.record(z.string(), z.union([z.array(z.string()), z.string()]));

/** Provet's reasons per field from a 400 body (`non_field_errors` for the body as a whole). */
export function fieldErrorsOf(json: unknown): Record<string, string[]> {
  const detail = detailBody.safeParse(json);
  if (detail.success) return { non_field_errors: [detail.data.detail] };
  const fields = fieldErrorsBody.safeParse(json);
  if (!fields.success) return {};
  return Object.fromEntries(Object.entries(fields.data).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

export function provetError(
  status: number,
  json: unknown,
  headers: Record<string, string | string[] | undefined>,
): PimsError {
  const detail = detailBody.safeParse(json);
  const said = detail.success ? ` (${detail.data.detail.slice(0, 200)})` : '';
  if (status === 401) return new PimsError('signed_out', 'Sign in to Provet again.', { status });
  if (status === 403)
    return new PimsError(
      'permission',
      `Your Provet user is not allowed to do this${said}: ask the clinic's Provet administrator for the permission.`,
      { status },
    );
  if (status === 404) return new PimsError('not_found', 'Provet no longer has what was asked for.', { status });
  if (status === 429) {
    const wait = retryAfterMs(headers['retry-after']);
    return new PimsError('rate_limited', 'Provet asks to wait before the next request.', {
      status,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status === 400) {
    const fieldErrors = fieldErrorsOf(json);
    const first = Object.entries(fieldErrors)[0];
    return new PimsError(
      'refused',
      first
        ? `Provet refused what was sent: ${first[0] === 'non_field_errors' ? '' : `${first[0]}: `}${first[1].join(' ')}`
        : 'Provet refused what was sent, without saying why.',
      { status, fieldErrors },
    );
  }
  if (status >= 500)
    return new PimsError('unreachable', `Provet failed on its side (HTTP ${status}): try again later.`, { status });
  return new PimsError('invalid_answer', `Provet answered HTTP ${status}, which the app does not expect here.`, {
    status,
  });
}

/** A GET of the REST API, its JSON on 200, a PimsError otherwise. */
export async function provetGet(url: string, token: string, http: PimsHttpOptions = {}): Promise<unknown> {
  const answer = await send('GET', url, { token }, { name: 'Provet', ...http });
  if (answer.status !== 200) throw provetError(answer.status, answer.json, answer.headers);
  if (answer.json === undefined) throw new PimsError('invalid_answer', 'Provet answered with a body that is not JSON.');
  return answer.json;
}
