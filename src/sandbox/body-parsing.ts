// How request bodies are read: JSON in UTF-8 only. `text/plain` has no
// parser, so it is refused 415 like any non-JSON type (fastify parses it by
// default); a charset other than UTF-8 is refused 415 rather than decoded as
// UTF-8 into different text (DECISIONS S17).
import contentType from 'content-type';
import type { FastifyInstance } from 'fastify';
import { apiOf } from './error-bodies.js';

/** Raised for a JSON body in another charset; the error handler answers 415. */
export class UnsupportedCharsetError extends Error {
  readonly code = 'SANDBOX_UNSUPPORTED_CHARSET';
  constructor(readonly charset: string) {
    super(`Content-Type charset must be utf-8, not ${charset}`);
  }
}

function charsetOf(header: string | undefined): string | undefined {
  try {
    return header === undefined ? undefined : contentType.parse(header).parameters.charset?.toLowerCase();
  } catch {
    return undefined;
  }
}

export function useJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new UnsupportedCharsetError(charset), undefined);
      return;
    }
    // Control requests must send the JSON type (control-guard.ts) even where
    // the operation takes no body, so an empty one is no body there.
    if (body === '' && apiOf(request.url) === 'sandbox') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
