/**
 * EventStoreDB credentials and CA from the environment, so they can come from a Kubernetes Secret
 * instead of a ConfigMap URL (docs/configuration.md, "Kafka and EventStoreDB"):
 * `EVENTSTORE_USERNAME` with `EVENTSTORE_PASSWORD_FILE` (a mounted Secret key) or
 * `EVENTSTORE_PASSWORD`, and `EVENTSTORE_TLS_CA_FILE` (the CA that signed the nodes' certificates).
 * They are merged into the connection string the client reads (`user:password@`, `tlsCAFile=`); a
 * setting given both ways is refused rather than one silently winning.
 */
import { readFileSync } from 'node:fs';
import { InvalidConnectionStringError } from './connection-string.js';

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

export function withCredentials(
  connectionString: string,
  env: NodeJS.ProcessEnv = process.env,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): string {
  const refuse = (reason: string) => new InvalidConnectionStringError(connectionString, reason);
  const match = /^(esdb(?:\+discover)?:\/\/)([^/?]*)(.*)$/i.exec(connectionString.trim());
  if (!match) return connectionString;
  const [, scheme = '', authority = '', rest = ''] = match;
  let result = connectionString.trim();

  const username = env['EVENTSTORE_USERNAME'];
  const passwordFile = env['EVENTSTORE_PASSWORD_FILE'];
  const passwordEnv = env['EVENTSTORE_PASSWORD'];
  if (isSet(username)) {
    if (authority.includes('@'))
      throw refuse('EVENTSTORE_USERNAME is set but the connection string has credentials too');
    if (isSet(passwordFile) && isSet(passwordEnv))
      throw refuse('set EVENTSTORE_PASSWORD or EVENTSTORE_PASSWORD_FILE, not both');
    let password = passwordEnv;
    if (isSet(passwordFile)) {
      try {
        // A Secret's file often ends with a newline that is not part of the password.
        password = readFile(passwordFile.trim()).replace(/\r?\n$/, '');
      } catch (error) {
        throw refuse(`EVENTSTORE_PASSWORD_FILE=${passwordFile} cannot be read (${(error as Error).message})`);
      }
    }
    if (!isSet(password)) throw refuse('EVENTSTORE_USERNAME needs EVENTSTORE_PASSWORD or EVENTSTORE_PASSWORD_FILE');
    const userInfo = `${encodeURIComponent(username.trim())}:${encodeURIComponent(password)}@`;
    result = `${scheme}${userInfo}${authority}${rest}`;
  } else if (isSet(passwordFile) || isSet(passwordEnv)) {
    throw refuse('a password is set but EVENTSTORE_USERNAME is not');
  }

  const caFile = env['EVENTSTORE_TLS_CA_FILE'];
  if (isSet(caFile)) {
    const query = /\?(.*)$/.exec(rest)?.[1] ?? '';
    const params = new URLSearchParams(query);
    if ([...params.keys()].some((key) => key.toLowerCase() === 'tlscafile'))
      throw refuse('EVENTSTORE_TLS_CA_FILE is set but the connection string has tlsCAFile too');
    if ([...params].some(([key, value]) => key.toLowerCase() === 'tls' && value.toLowerCase() === 'false'))
      throw refuse('EVENTSTORE_TLS_CA_FILE is set but the connection string says tls=false');
    result += `${query === '' && !rest.includes('?') ? '?' : '&'}tlsCAFile=${encodeURIComponent(caFile.trim())}`;
  }
  return result;
}
