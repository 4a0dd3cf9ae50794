// `PUT` of a recording to the presigned address `POST /audio/generate-upload-url` gave: streamed
// from disk (../upload.ts) with progress and a stall time-out, and storage's refusals (XML, not the
// service's JSON) read into a ServiceError whose code decides whether the job renews the address.
import { stat } from 'node:fs/promises';
import { serviceErrorCode, serviceErrorMessage, storageError } from '../../../shared/service/index.ts';
import { parseRetryAfter, ServiceError } from './errors.ts';
import { connectionWords, describeNetworkFailure, type Network, type Route } from './network.ts';
import { putFile, PutFileError } from './upload.ts';

export interface UploadProgress {
  sent: number;
  total: number;
}

/** What the upload takes from the client: its route to the address, and its time-outs and log. */
export interface UploadRoute {
  network: Network;
  routeFor(operation: string, url: string): Promise<Route>;
  /** An upload that makes no progress for this long is abandoned, in ms. */
  stallMs: number;
  /** The storage's answer after the last byte must come within this, in ms. */
  answerMs: number;
  log?: (line: string) => void;
}

/**
 * `PUT <presigned url>`: streams the file to the presigned address, reporting progress; never reads it whole.
 * A null content type sends none, as `curl -T` does: an address signed without one refuses a
 * request that carries a header it did not sign.
 */
export async function uploadFile(
  via: UploadRoute,
  uploadUrl: string,
  filePath: string,
  contentType: string | null,
  {
    onProgress,
    signal,
    headers = {},
  }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<void> {
  const operation = 'upload';
  const { size } = await stat(filePath);
  let url: URL;
  try {
    url = new URL(uploadUrl);
  } catch (e) {
    throw new ServiceError(
      'invalid_answer',
      operation,
      `The upload address given by the service is not a URL: "${uploadUrl.slice(0, 200)}".`,
      { cause: e },
    );
  }
  const route = await via.routeFor(operation, uploadUrl);
  const started = Date.now();
  let answer;
  try {
    answer = await putFile(url, filePath, size, {
      agent: via.network.uploadAgent(route),
      secureContext: url.protocol === 'https:' ? via.network.secureContext : undefined,
      headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      onProgress: (sent, total) => onProgress?.({ sent, total }),
      signal,
      stallMs: via.stallMs,
      answerMs: via.answerMs,
    });
  } catch (e) {
    if (e instanceof PutFileError) {
      if (e.kind === 'aborted')
        throw new ServiceError('aborted', operation, `${operation} was cancelled.`, { cause: e });
      if (e.kind === 'stalled')
        throw new ServiceError(
          'timeout',
          operation,
          `The upload made no progress for ${Math.round(via.stallMs / 1000)} s.`,
          { cause: e },
        );
      if (e.kind === 'no_answer')
        throw new ServiceError('timeout', operation, `The service did not answer ${operation} in time.`, {
          cause: e,
        });
    }
    const failure = describeNetworkFailure(e, uploadUrl, route);
    if (failure) throw new ServiceError('network', operation, failure.message, { code: failure.code, cause: e });
    throw new ServiceError(
      'network',
      operation,
      `Could not reach the service for ${operation}: ${connectionWords(e, uploadUrl) ?? ((e as Error).message || 'network error')}`.replace(
        /([^.])$/,
        '$1.',
      ),
      { cause: e },
    );
  }
  via.log?.(`${operation}: PUT ${answer.status}, ${size} bytes in ${Date.now() - started} ms`);
  if (answer.status >= 300) {
    // Cloud storage answers in XML (docs/service.md, "Upload"); its code decides renew or stop.
    const storage = storageError(answer.text);
    if (storage) {
      const words = storage.message.replace(/[.\s]+$/, '');
      throw new ServiceError(
        'http',
        operation,
        `The storage service refused the upload${words ? `: ${words}` : ''} (${storage.code}).`,
        {
          status: answer.status,
          code: storage.code,
          retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
        },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.text) as unknown;
    } catch {
      json = undefined;
    }
    throw new ServiceError('http', operation, serviceErrorMessage(json, answer.text, answer.status), {
      status: answer.status,
      code: serviceErrorCode(json),
      retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
    });
  }
}
