/**
 * Headers of every answer. The launch URL carries the session token, so no page may leak it:
 * no referrer, nothing loaded from elsewhere, no inline script. The page is meant to be framed
 * by the operator's site (spec §4.3), so framing is allowed for the operator's allowed origins
 * when it has any, and anywhere otherwise.
 */
import type { RequestHandler, Response } from 'express';
import { pageContentSecurityPolicy } from '@reelstream/platform-http';

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    });
    setContentSecurityPolicy(res, []);
    next();
  };
}

/** `frameAncestors`: the origins that may frame the page; empty means any. */
export function setContentSecurityPolicy(res: Response, frameAncestors: readonly string[]): void {
  const ancestors =
    frameAncestors.length === 0 ? '*' : frameAncestors.map((origin) => new URL(origin).origin).join(' ');
  res.set('Content-Security-Policy', pageContentSecurityPolicy(ancestors));
}
