// Runs every project's jest config in one jest process (one worker pool for the whole repo).
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = import.meta.dirname;

function findProjects(dir, depth) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (existsSync(join(path, 'jest.config.mjs'))) found.push(path);
    else if (depth > 0) found.push(...findProjects(path, depth - 1));
  }
  return found;
}

export default {
  projects: [
    ...['apps', 'libs'].filter((d) => existsSync(join(root, d))).flatMap((d) => findProjects(join(root, d), 2)),
    // Top-level folders with their own checks (k8s manifests, docker files).
    ...['k8s', 'docker'].map((d) => join(root, d)).filter((d) => existsSync(join(d, 'jest.config.mjs'))),
  ],
  testTimeout: 30_000,
  // Jest's default on 2 cores is one worker: most suites wait on real processes, timers and fsyncs
  // rather than compute, so two overlap them. The real-time tests keep their margins with both
  // cores busy (see the README's testing section).
  maxWorkers: 2,
  // A worker keeps what every test file it ran left behind (ES modules under vm contexts are not
  // collected); over the whole run one grew past Node's 4.5 GB heap and crashed. A worker whose heap
  // is over 2 GB after a file is replaced by a fresh one before the next.
  workerIdleMemoryLimit: '2GB',
};
