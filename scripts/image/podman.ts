/**
 * podman as `npm run test:image` runs it: as root, with runc and cgroupfs (no systemd here), on
 * podman's default storage (overlay: it works as root on these machines; vfs copies every layer
 * whole and took tens of GB and minutes per build). IMAGE_STORAGE_DRIVER=vfs falls back to vfs
 * where overlay is refused.
 */
import { run, type RunOptions, type RunResult } from './run.js';

export function podmanCommand(args: readonly string[]): string[] {
  const driver = process.env['IMAGE_STORAGE_DRIVER'];
  return [
    'podman',
    '--cgroup-manager',
    'cgroupfs',
    '--runtime',
    'runc',
    ...(driver ? ['--storage-driver', driver] : []),
    ...args,
  ];
}

export function podman(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return run(podmanCommand(args), options);
}

export async function imageExists(tag: string): Promise<boolean> {
  return (await podman(['image', 'exists', tag], { allowFailure: true })).code === 0;
}

/** The storage driver podman uses, for the report. */
export async function storageDriver(): Promise<string> {
  return (await podman(['info', '--format', '{{.Store.GraphDriverName}}'])).stdout.trim();
}
