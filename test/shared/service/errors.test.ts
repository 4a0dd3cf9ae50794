import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  OPERATIONS,
  operationNumber,
  ServiceResponseError,
  serviceErrorCode,
  serviceErrorMessage,
  storageError,
} from '../../../src/shared/service/index.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/service/${name}`, import.meta.url), 'utf8'));

describe('serviceErrorMessage', () => {
  it('takes a string detail first', () => {
    expect(
      serviceErrorMessage(
        { detail: 'Wrong e-mail or password.', code: 'invalid_credentials', message: 'other' },
        '',
        401,
      ),
    ).toBe('Wrong e-mail or password.');
  });

  it('joins a FastAPI validation list into one sentence, without the "body" location', () => {
    expect(serviceErrorMessage(fixture('error-validation.json'), '', 422)).toBe(
      'The service refused the request: email: value is not a valid email address; password is missing.',
    );
  });

  it("names the published workflow's fields in plain words (422 of POST /recording-sessions/create)", () => {
    const detail = [
      { loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' },
      {
        loc: ['body', 'session_date'],
        msg: 'Input should be a valid date in the format YYYY-MM-DD',
        type: 'date_from_datetime_parsing',
      },
      { loc: ['body', 'items', 0, 'name'], msg: 'String should have at least 1 character', type: 'string_too_short' },
    ];
    const message = serviceErrorMessage({ detail }, JSON.stringify({ detail }), 422);
    expect(message).toBe(
      'The service refused the request: patient name is missing; session date: input should be a valid date in the format YYYY-MM-DD; items item 1 name: string should have at least 1 character.',
    );
    expect(message).not.toMatch(/[[\]{}]|patient_name|"loc"/);
  });

  it('keeps a location that is the only element, and items without loc', () => {
    expect(
      serviceErrorMessage(
        { detail: [{ loc: ['body'], msg: 'body required' }, { msg: 'second' }, 'third', 42] },
        '',
        422,
      ),
    ).toBe('The service refused the request: body: body required; second; third.');
  });

  it('reads the documented alternative { error: <int>, message }', () => {
    expect(serviceErrorMessage({ error: 404, message: 'Recording session not found' }, '', 404)).toBe(
      'Recording session not found',
    );
    expect(serviceErrorCode({ error: 404, message: 'Recording session not found' })).toBe('404');
  });

  it('reads detail as an object with a message', () => {
    expect(serviceErrorMessage({ detail: { message: 'Quota exceeded' } }, '', 429)).toBe('Quota exceeded');
  });

  it('falls back to message, then error as text, then error.message', () => {
    expect(serviceErrorMessage({ message: 'Token expired' }, '', 401)).toBe('Token expired');
    expect(serviceErrorMessage({ detail: '  ', error: 'Forbidden organization' }, '', 403)).toBe(
      'Forbidden organization',
    );
    expect(serviceErrorMessage({ error: { message: 'Template not found', code: 'nf' } }, '', 404)).toBe(
      'Template not found',
    );
  });

  it('uses the raw body when no member has text, collapsed and cut to about 300 characters', () => {
    expect(serviceErrorMessage(undefined, '  upstream\n  connect error  ', 502)).toBe('upstream connect error');
    const long = 'x'.repeat(1000);
    const text = serviceErrorMessage(undefined, long, 500);
    expect(text.length).toBe(300);
    expect(text.endsWith('…')).toBe(true);
    expect(serviceErrorMessage({ unrelated: true }, '{"unrelated":true}', 500)).toBe('{"unrelated":true}');
  });

  it('reads the text of an HTML error page, not its markup', () => {
    const html =
      '<html><head><style>body{color:red}</style><title>502</title></head><body><h1>Bad Gateway</h1></body></html>';
    expect(serviceErrorMessage(undefined, html, 502)).toBe('502 Bad Gateway');
  });

  it('takes a JSON string body as the text', () => {
    expect(serviceErrorMessage('Service is down for maintenance', '"Service is down for maintenance"', 503)).toBe(
      'Service is down for maintenance',
    );
  });

  it('says HTTP <status> when there is nothing else', () => {
    expect(serviceErrorMessage(undefined, '', 500)).toBe('HTTP 500');
    expect(serviceErrorMessage(null, '   ', 404)).toBe('HTTP 404');
  });

  it('never shows a validation list it cannot read as words: a sentence instead', () => {
    const unreadable = { detail: [{ loc: ['body', 'patient_name'], type: 'missing' }] };
    expect(serviceErrorMessage(unreadable, JSON.stringify(unreadable), 422)).toBe(
      'The service refused the request as invalid (HTTP 422).',
    );
    expect(serviceErrorMessage({ detail: [] }, '{"detail":[]}', 422)).toBe(
      'The service refused the request as invalid (HTTP 422).',
    );
  });
});

describe('serviceErrorCode', () => {
  it('reads code, a numeric code, or error.code', () => {
    expect(serviceErrorCode({ detail: 'x', code: 'refresh_token_reused' })).toBe('refresh_token_reused');
    expect(serviceErrorCode({ code: 4011 })).toBe('4011');
    expect(serviceErrorCode({ error: { code: 'rate_limited' } })).toBe('rate_limited');
  });

  it('reads the type of a FastAPI validation item, after any code of its own', () => {
    const detail = [{ loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' }];
    expect(serviceErrorCode({ detail })).toBe('missing');
    expect(serviceErrorCode({ detail: ['text', { msg: 'x' }, { msg: 'y', type: 'date_parsing' }] })).toBe(
      'date_parsing',
    );
    expect(serviceErrorCode({ detail, code: 'invalid_body' })).toBe('invalid_body');
    expect(serviceErrorCode({ error: 404, message: 'Recording session not found' })).toBe('404');
  });

  it('is undefined when there is none', () => {
    expect(serviceErrorCode({ detail: [{ msg: 'no type' }] })).toBeUndefined();
    expect(serviceErrorCode({ detail: 'x' })).toBeUndefined();
    expect(serviceErrorCode({ code: '' })).toBeUndefined();
    expect(serviceErrorCode(null)).toBeUndefined();
    expect(serviceErrorCode(['code'])).toBeUndefined();
  });
});

describe('ServiceResponseError', () => {
  it('names the operation and the field', () => {
    const e = new ServiceResponseError('sign-in', 'access_token', 'is missing');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ServiceResponseError');
    expect(e.operation).toBe('sign-in');
    expect(e.field).toBe('access_token');
    expect(e.message).toBe('Unexpected answer from the service for sign-in: field "access_token" is missing');
  });

  it('speaks of the answer as a whole when there is no field, and lists other names', () => {
    expect(new ServiceResponseError('templates', '', 'must be an object, got null').message).toBe(
      'Unexpected answer from the service for templates: the answer must be an object, got null',
    );
    expect(new ServiceResponseError('upload-url', 'upload_url', 'is missing', ['url']).message).toBe(
      'Unexpected answer from the service for upload-url: field "upload_url" (or "url") is missing',
    );
  });
});

describe('OPERATIONS', () => {
  it('names the 13 numbered operations of docs/service.md in order', () => {
    expect(OPERATIONS).toHaveLength(13);
    expect(new Set(OPERATIONS).size).toBe(13);
    expect(operationNumber('sign-in')).toBe(1);
    expect(operationNumber('upload')).toBe(7);
    expect(operationNumber('ddx-agent')).toBe(10);
    expect(operationNumber('webhook-status')).toBe(13);
    expect(operationNumber('users-me')).toBe(0);
  });
});

describe('storageError (the PUT to the presigned address, cloud-storage XML)', () => {
  it('reads the code and message of an expired address and of a bad signature', () => {
    const expired =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><RequestId>1</RequestId></Error>';
    expect(storageError(expired)).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
    const bad =
      '<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key &amp; signing method.</Message></Error>';
    expect(storageError(bad)).toEqual({
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key & signing method.',
    });
  });

  it('is not fooled by JSON, HTML or an Error without a code', () => {
    expect(storageError('{"detail":"Not authenticated"}')).toBeUndefined();
    expect(storageError('<html><body>502 Bad Gateway</body></html>')).toBeUndefined();
    expect(storageError('<Error><Message>no code</Message></Error>')).toBeUndefined();
    expect(storageError('<Error><Code>' + 'x'.repeat(5000) + '</Code></Error>')).toBeUndefined();
  });
});
