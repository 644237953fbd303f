import { JSON_CONTENT_TYPE, RefusedError } from '@reelstream/contracts';
import express, { type RequestHandler } from 'express';

/** Whether the Content-Type header names `application/json` (any parameters, any case). */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return (header.split(';', 1)[0] ?? '').trim().toLowerCase() === JSON_CONTENT_TYPE;
}

/**
 * Every write of API v1 is a JSON body (spec §4): another or no Content-Type is refused before
 * a byte is read; the body is parsed strictly (an object or array at the top), at most
 * `limitBytes`, without compression (a small gzip can inflate to a large body). The parser's
 * errors are turned into catalogue codes by the error handler.
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!isJsonContentType(req.get('content-type'))) throw new RefusedError('UNSUPPORTED_MEDIA_TYPE');
    next();
  };
  return [requireJson, express.json({ limit: limitBytes, strict: true, inflate: false, type: () => true })];
}
