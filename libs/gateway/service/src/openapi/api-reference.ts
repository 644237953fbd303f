/**
 * `/docs`: Scalar's API reference (`@scalar/api-reference`, pinned in package.json) rendering
 * /openapi.json — markdown, search, code samples and "try it" against this gateway. Everything
 * is served from here: the machine running the gateway may be offline, so nothing comes from a
 * CDN, and Scalar's own fonts, AI agent and MCP links (all on scalar.com) are turned off. The
 * configuration is a script of its own so the default Content-Security-Policy
 * (`script-src 'self'`, no inline scripts) stays on.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Express } from 'express';

/** Where a build (scripts/build-apps.ts) puts the browser bundle beside this module: the image carries no `@scalar` package. */
const BUILT_STANDALONE_JS = 'scalar-standalone.js';

/**
 * The browser bundle: Scalar with Vue and its styles in one file. A built app serves the copy made
 * at build time; from the sources it comes from the package (not an exported path, hence via the
 * package's main), a development dependency.
 */
function standaloneJsPath(): string {
  const built = join(import.meta.dirname, BUILT_STANDALONE_JS);
  if (existsSync(built)) return built;
  return join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reelstream operator API v1</title>
<link rel="stylesheet" href="/docs/fonts.css">
</head>
<body>
<div id="app"></div>
<script src="/docs/scalar.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * The Scalar configuration. Requests of "try it" go straight to this origin (the document's
 * server is `/`), so no proxy; the operator pastes an API token into the auth form.
 */
const INIT = `'use strict';
Scalar.createApiReference('#app', ${JSON.stringify({
  sources: [{ url: '/openapi.json', slug: 'v1', title: 'reelstream operator API v1', agent: { disabled: true } }],
  withDefaultFonts: false,
  telemetry: false,
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
})});
`;

/**
 * Scalar's themes name Inter and JetBrains Mono, whose @font-face rules fetch from scalar.com
 * whatever `withDefaultFonts` says: system fonts instead, so the page asks nothing of the network.
 */
const FONTS_CSS = `*, :root, .scalar-app, .light-mode, .dark-mode {
  --scalar-font: ui-sans-serif, system-ui, sans-serif !important;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace !important;
}
`;

export function apiReferenceRoutes(app: Express): void {
  const standaloneJs = standaloneJsPath();
  app.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  app.get('/docs/fonts.css', (_req, res) => {
    res.type('text/css').send(FONTS_CSS);
  });
  app.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(INIT);
  });
  // A day of caching: the bundle changes only with the pinned package version.
  app.get('/docs/scalar.js', (_req, res, next) => {
    res.sendFile(standaloneJs, { maxAge: '1d', headers: { 'Content-Type': 'text/javascript' } }, next);
  });
}
