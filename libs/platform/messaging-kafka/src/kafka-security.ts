/**
 * TLS and SASL for the Kafka client, from the environment (docs/configuration.md, "Kafka and
 * EventStoreDB"). Certificates, keys and the password are read from files, so a Kubernetes Secret
 * mounted as files feeds them without putting a secret in an environment variable; a password may
 * also come from `KAFKA_SASL_PASSWORD` (e.g. `valueFrom.secretKeyRef`). Files are read once, at
 * start-up: a rotated certificate takes a restart (a rolling update).
 *
 * Refused at start-up, with the variable named: a client certificate without its key (or the
 * reverse), a SASL mechanism without a user or a password, an unknown mechanism, and PLAIN over a
 * connection without TLS (it would send the password in clear; SCRAM never sends it).
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ReelstreamError } from '@reelstream/contracts';

class InvalidKafkaSecurityError extends ReelstreamError {
  override readonly name = 'InvalidKafkaSecurityError';
  constructor(reason: string) {
    super('CONFIGURATION_INVALID', `Kafka settings: ${reason}`, { retriable: false });
  }
}

export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions;
}

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
type Mechanism = (typeof MECHANISMS)[number];

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** A true/false variable; `fallback` when unset or blank. Also reads KAFKA_AUTO_CREATE_TOPICS (open.ts). */
export function booleanSetting(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new InvalidKafkaSecurityError(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
}

/** Reads the TLS and SASL settings; `{}` when none is set (plaintext, no authentication). */
export function kafkaSecurity(
  env: NodeJS.ProcessEnv = process.env,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): KafkaSecurity {
  const read = (name: string): string | undefined => {
    const path = env[name];
    if (!isSet(path)) return undefined;
    try {
      return readFile(path.trim());
    } catch (error) {
      throw new InvalidKafkaSecurityError(
        `${name}=${path} cannot be read (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };
  const security: KafkaSecurity = {};
  const ca = read('KAFKA_TLS_CA_FILE');
  const cert = read('KAFKA_TLS_CERT_FILE');
  const key = read('KAFKA_TLS_KEY_FILE');
  if ((cert === undefined) !== (key === undefined))
    throw new InvalidKafkaSecurityError(
      'KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together (a client certificate)',
    );
  // A CA or a client certificate means TLS; KAFKA_TLS=true alone means TLS with the system's CAs.
  if (booleanSetting(env, 'KAFKA_TLS') || ca !== undefined || cert !== undefined) {
    security.ssl = {
      rejectUnauthorized: true,
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined || key === undefined ? {} : { cert, key }),
    };
  }
  const sasl = saslOf(env, read);
  if (sasl) {
    if (sasl.mechanism === 'plain' && !security.ssl)
      throw new InvalidKafkaSecurityError(
        'KAFKA_SASL_MECHANISM=plain sends the password in clear: set KAFKA_TLS=true (or a CA file) too',
      );
    security.sasl = sasl;
  }
  return security;
}

function saslOf(env: NodeJS.ProcessEnv, read: (name: string) => string | undefined): SASLOptions | undefined {
  const raw = env['KAFKA_SASL_MECHANISM'];
  if (!isSet(raw)) {
    if (isSet(env['KAFKA_SASL_USERNAME']))
      throw new InvalidKafkaSecurityError('KAFKA_SASL_USERNAME is set but KAFKA_SASL_MECHANISM is not');
    return undefined;
  }
  const mechanism = raw.trim().toLowerCase();
  if (!MECHANISMS.includes(mechanism as Mechanism))
    throw new InvalidKafkaSecurityError(
      `KAFKA_SASL_MECHANISM must be one of ${MECHANISMS.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  const username = env['KAFKA_SASL_USERNAME'];
  if (!isSet(username))
    throw new InvalidKafkaSecurityError(`KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_USERNAME`);
  const fromFile = read('KAFKA_SASL_PASSWORD_FILE');
  const fromEnv = env['KAFKA_SASL_PASSWORD'];
  if (fromFile !== undefined && isSet(fromEnv))
    throw new InvalidKafkaSecurityError('set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both');
  // A file written by hand or by a Secret often ends with a newline that is not part of the password.
  const password = fromFile?.replace(/\r?\n$/, '') ?? fromEnv;
  if (!isSet(password))
    throw new InvalidKafkaSecurityError(
      `KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE`,
    );
  return { mechanism: mechanism as Mechanism, username: username.trim(), password } as SASLOptions;
}
