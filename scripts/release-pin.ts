/**
 * `npm run release:pin -- <sha256:…>`: the release step that points the production overlay at the
 * image a release pushed, by digest (scripts/release/pin-image.ts). `--overlay <dir>` pins another
 * overlay (e.g. a copy); `--check` changes nothing and fails unless the overlay is pinned to a digest,
 * for a deploy pipeline to run before `kubectl apply -k`.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { digestProblems, imageEntry, pinImageDigest, renderedReference } from './release/pin-image.js';

const REPOSITORY_ROOT = resolve(import.meta.dirname, '..');

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      overlay: { type: 'string', default: join(REPOSITORY_ROOT, 'k8s', 'overlays', 'production') },
      check: { type: 'boolean', default: false },
    },
  });
  const file = join(resolve(values.overlay), 'kustomization.yaml');
  const local = relative(process.cwd(), file);
  const shown = local.startsWith('..') ? file : local;
  if (values.check) {
    const reference = renderedReference(imageEntry(readFileSync(file, 'utf8')));
    const problems = digestProblems(reference);
    if (problems.length > 0) {
      process.stderr.write(`release:pin: ${shown}: ${problems.join('; ')}\n`);
      return 1;
    }
    process.stdout.write(`release:pin: ${shown} deploys ${reference}\n`);
    return 0;
  }
  const [digest, ...rest] = positionals;
  if (!digest || rest.length > 0) {
    process.stderr.write('usage: npm run release:pin -- <sha256:…> [--overlay <dir>] | --check [--overlay <dir>]\n');
    return 2;
  }
  const { before, after } = pinImageDigest(file, digest);
  process.stdout.write(`release:pin: ${shown}: ${renderedReference(before)} → ${renderedReference(after)}\n`);
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`release:pin: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
