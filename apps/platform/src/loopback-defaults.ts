/**
 * `npm start` is a development and demo process: each of its listening sockets is on loopback unless a
 * variable says otherwise (the sandbox's `SANDBOX_HOST` already is). The single apps keep their own
 * defaults: in a container they are reached from outside.
 */
import type { Env } from '@reelstream/platform-config';

export const PLATFORM_DEFAULT_HOST = '127.0.0.1';

/** The variables naming an interface of a socket `npm start` listens on, loopback when unset or empty. */
const HOST_VARIABLES = ['GATEWAY_HOST', 'GAME_HOST', 'SANDBOX_HOST', 'OTEL_EXPORTER_PROMETHEUS_HOST'] as const;

export function loopbackByDefault(env: Env): Env {
  const hosts = Object.fromEntries(
    HOST_VARIABLES.map((name) => [name, env[name]?.trim() ? env[name] : PLATFORM_DEFAULT_HOST]),
  );
  return { ...env, ...hosts };
}

/** Where a server listening on `host` is reached from this machine. */
export function localUrl(port: number, host: string | undefined): string {
  const local = host === undefined || ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(host);
  if (local) return `http://localhost:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
