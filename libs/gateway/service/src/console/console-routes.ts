/**
 * `/console`: the operator console, a single page of plain ES modules (no framework) that signs in
 * with an operator's API token and calls API v1 on this origin, so it sees only what the API shows
 * that operator (docs/adr/0022-operator-console-and-wallet-health.md). Its files are read once at
 * start-up and served under the game page's Content-Security-Policy — nothing from elsewhere, no
 * inline script or style — except that no other site may frame it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { Express, Response } from 'express';
import { pageContentSecurityPolicy } from '@reelstream/platform-http';

/** The console's files: `index.html` and its assets, beside this library's sources (and copied into a build). */
const CONSOLE_DIR = resolve(import.meta.dirname, '../../console');

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The console's Content-Security-Policy: the game page's, with framing refused. */
const CONSOLE_CSP = pageContentSecurityPolicy("'none'");

function secure(res: Response): Response {
  return res.set({
    'Content-Security-Policy': CONSOLE_CSP,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'Cache-Control': 'no-cache',
  });
}

export function consoleRoutes(app: Express, dir: string = CONSOLE_DIR): void {
  const page = readFileSync(join(dir, 'index.html'));
  const assets = new Map(
    readdirSync(join(dir, 'assets'))
      .filter((name) => TYPES[extname(name)] !== undefined)
      .map((name) => [name, { body: readFileSync(join(dir, 'assets', name)), type: TYPES[extname(name)] as string }]),
  );
  // `/console` and `/console/` are the same page; its assets are relative to `/console/`.
  app.get('/console', (req, res) => {
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) {
      res.redirect(301, '/console/');
      return;
    }
    secure(res).type('html').send(page);
  });
  app.get('/console/assets/:name', (req, res, next) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      next();
      return;
    }
    secure(res).type(asset.type).send(asset.body);
  });
}
