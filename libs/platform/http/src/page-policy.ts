/**
 * The Content-Security-Policy of the platform's own pages (the game page, the operator console): their
 * scripts, styles and calls from their own origin only, no inline script, no plugins, no forms posted
 * elsewhere. `frameAncestors` is the policy's `frame-ancestors` value: `'none'` for a page no site may
 * frame, `*` or a list of origins for one an operator's site embeds.
 */
export function pageContentSecurityPolicy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}
