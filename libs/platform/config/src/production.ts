/**
 * Production mode (`NODE_ENV=production`, docs/configuration.md "Production mode"): the operator
 * configurations a public example, a slip or a guess can produce are refused at start-up instead
 * of running. Each problem names the operator's key, as the parser's do.
 */
import { isIP } from 'node:net';
import { apiTokenDigest, type OperatorsDocument } from '@reelstream/contracts';
import type { Env } from './env.js';

export function isProduction(env: Env): boolean {
  return env['NODE_ENV'] === 'production';
}

/** Where a URL's host points, as far as its text tells (a DNS name other than localhost is not resolved). */
type AddressClass = 'link-local' | 'loopback' | 'private' | 'public';

/** Names of cloud metadata services: as reachable from a pod as their link-local address. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'fd00:ec2::254']);

function ipv4Class(address: string): AddressClass {
  const [a = 0, b = 0] = address.split('.').map(Number);
  if (a === 169 && b === 254) return 'link-local';
  if (a === 127 || a === 0) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
    return 'private';
  return 'public';
}

/** An IPv4 address written inside an IPv6 one (`::ffff:a9fe:a9fe`, `::ffff:169.254.169.254`), else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const high = parseInt(mapped[1] ?? '0', 16);
    const low = parseInt(mapped[2] ?? '0', 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  const dotted = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  return dotted?.[1];
}

/** The class of a URL's host as `new URL(…).hostname` writes it (IPv6 in brackets). */
function addressClassOf(hostname: string): AddressClass {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (METADATA_HOSTS.has(host)) return 'link-local';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const family = isIP(host);
  if (family === 4) return ipv4Class(host);
  if (family !== 6) return 'public';
  const v4 = embeddedIpv4(host);
  if (v4 !== undefined) return ipv4Class(v4);
  if (host === '::1' || host === '::') return 'loopback';
  if (/^fe[89ab]/.test(host)) return 'link-local';
  if (/^f[cd]/.test(host)) return 'private';
  return 'public';
}

/** Public values that must never sign or authenticate anything in production (the demo operator's). */
export interface PublicCredentials {
  apiTokens: readonly string[];
  signingSecrets: readonly string[];
}

const oneCharacterRepeated = (value: string) => /^(.)\1*$/s.test(value);

/** Every reason production mode refuses this configuration; none when it may run. */
export function productionProblems(document: OperatorsDocument, known: PublicCredentials): string[] {
  const problems: string[] = [];
  const publicTokenDigests = new Set(known.apiTokens.map((token) => apiTokenDigest(token)));
  document.operators.forEach((operator, index) => {
    const at = (key: string) => `operators[${index}].${key}`;
    const written = document.written[index] ?? {};
    if (document.version === 1 && written['signatureScheme'] === undefined)
      problems.push(
        `${at('signatureScheme')}: name it in production: "body" keeps what this operator signs today, "timestamp.body" (the default of a version 2 configuration) lets its wallet refuse a replayed callback`,
      );
    if (publicTokenDigests.has(operator.apiTokenSha256))
      problems.push(`${at('apiToken')}: is the public demo token; give this operator its own`);
    const token = typeof written['apiToken'] === 'string' ? written['apiToken'] : undefined;
    if (token !== undefined && oneCharacterRepeated(token))
      problems.push(`${at('apiToken')}: is one character repeated; use a long random token`);
    operator.signingSecrets.forEach((secret, secretIndex) => {
      const key = operator.signingSecrets.length > 1 ? `signingSecret[${secretIndex}]` : 'signingSecret';
      if (known.signingSecrets.includes(secret))
        problems.push(`${at(key)}: is the public demo signing secret; give this operator its own`);
      if (oneCharacterRepeated(secret))
        problems.push(`${at(key)}: is one character repeated; use a long random secret`);
      if (apiTokenDigest(secret) === operator.apiTokenSha256)
        problems.push(`${at(key)}: is the operator's API token; the token and the signing secret must differ`);
    });
    const urls: [string, string | undefined][] = [
      ['callbackUrl', operator.callbackUrl],
      ['webhookUrl', operator.webhookUrl],
    ];
    for (const [key, url] of urls) {
      if (url === undefined) continue;
      const hostname = new URL(url).hostname;
      const kind = addressClassOf(hostname);
      if (kind === 'link-local')
        problems.push(`${at(key)}: ${hostname} is a link-local or cloud metadata address, never a wallet`);
      else if (kind !== 'public' && operator.allowPrivateAddresses !== true)
        problems.push(
          `${at(key)}: ${hostname} is a ${kind} address; set "allowPrivateAddresses": true on this operator if its wallet is inside your network`,
        );
    }
  });
  return problems;
}
