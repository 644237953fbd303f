/**
 * Stream ids (docs/architecture.md "Data"), one builder each, and their parsers. The separator is `-`, and ids of
 * operators, platform ids and tokens may contain `-` too, so every variable component is
 * escaped: characters other than A–Z a–z 0–9 _ . ~ become %XX (UTF-8, upper-case hex), `-`
 * included. `playerBonus-acme%2Dcasino-p1` can therefore only be operator `acme-casino`,
 * player `p1`; ids made of safe characters read unchanged in logs.
 */
import { ReelstreamError } from '@reelstream/errors';
import { parseStoredEvent, type DomainEvent, type EventType } from './upcasting.js';

export const StreamCategories = {
  playerBonus: 'playerBonus',
  bonusRequest: 'bonusRequest',
  session: 'session',
  round: 'round',
  walletTx: 'walletTx',
  webhookLetter: 'webhookLetter',
} as const;
export type StreamCategory = (typeof StreamCategories)[keyof typeof StreamCategories];

const SAFE = /[A-Za-z0-9_.~]/;

export function encodeStreamComponent(value: string): string {
  if (value === '') throw new Error('a stream id component cannot be empty');
  let encoded = '';
  for (const char of value) {
    if (SAFE.test(char)) encoded += char;
    else
      for (const byte of new TextEncoder().encode(char))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

function decodeStreamComponent(value: string): string {
  return decodeURIComponent(value);
}

function positiveId(name: string, value: number): string {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive safe integer, got ${value}`);
  return String(value);
}

export function playerBonusStream(operatorId: string, playerId: string): string {
  return `${StreamCategories.playerBonus}-${encodeStreamComponent(operatorId)}-${encodeStreamComponent(playerId)}`;
}

export function bonusRequestStream(operatorId: string, platformId: string): string {
  return `${StreamCategories.bonusRequest}-${encodeStreamComponent(operatorId)}-${encodeStreamComponent(platformId)}`;
}

const SESSION_KEY_PREFIX = 'sha256.';

/** The stream of a session launched before the log held keys: named by its token (read until it expires). */
export function sessionStream(token: string): string {
  return `${StreamCategories.session}-${encodeStreamComponent(token)}`;
}

/**
 * The stream of a session by its key (`sessionKeyOf(token)`): `session-sha256.<key>`. The `.` is in
 * no launch token, so no token names this stream through `sessionStream`: a key read from the log
 * is not a token.
 */
export function sessionKeyStream(key: string): string {
  return `${StreamCategories.session}-${SESSION_KEY_PREFIX}${encodeStreamComponent(key)}`;
}

export function roundStream(roundId: number): string {
  return `${StreamCategories.round}-${positiveId('roundId', roundId)}`;
}

export function walletTxStream(transactionId: number): string {
  return `${StreamCategories.walletTx}-${positiveId('transactionId', transactionId)}`;
}

/** A dead-lettered bonus webhook of the operator, by its webhook `eventId`. */
export function webhookLetterStream(operatorId: string, eventId: string): string {
  return `${StreamCategories.webhookLetter}-${encodeStreamComponent(operatorId)}-${encodeStreamComponent(eventId)}`;
}

/** The prefix to filter a category in `readAll`/`subscribeToAll` (`playerBonus-`). */
export function streamPrefix(category: StreamCategory): string {
  return `${category}-`;
}

export type ParsedStreamId =
  | { category: 'playerBonus'; operatorId: string; playerId: string }
  | { category: 'bonusRequest'; operatorId: string; platformId: string }
  | { category: 'session'; token: string }
  | { category: 'session'; key: string }
  | { category: 'round'; roundId: number }
  | { category: 'walletTx'; transactionId: number }
  | { category: 'webhookLetter'; operatorId: string; eventId: string };

/** A component exactly as `encodeStreamComponent` writes it, decoded; otherwise undefined. */
function canonicalComponent(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const decoded = decodeStreamComponent(raw);
    return encodeStreamComponent(decoded) === raw ? decoded : undefined;
  } catch {
    return undefined;
  }
}

function canonicalId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[1-9][0-9]{0,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The parts a stream id was built from, or undefined when no builder here produces it. */
export function parseStreamId(streamId: string): ParsedStreamId | undefined {
  const [category, ...parts] = streamId.split('-');
  const [first, second] = parts.map(canonicalComponent);
  switch (category) {
    case StreamCategories.playerBonus:
      return parts.length === 2 && first !== undefined && second !== undefined
        ? { category, operatorId: first, playerId: second }
        : undefined;
    case StreamCategories.bonusRequest:
      return parts.length === 2 && first !== undefined && second !== undefined
        ? { category, operatorId: first, platformId: second }
        : undefined;
    case StreamCategories.session:
      if (parts.length !== 1 || first === undefined) return undefined;
      return first.startsWith(SESSION_KEY_PREFIX)
        ? { category, key: first.slice(SESSION_KEY_PREFIX.length) }
        : { category, token: first };
    case StreamCategories.round: {
      const roundId = parts.length === 1 ? canonicalId(parts[0]) : undefined;
      return roundId === undefined ? undefined : { category, roundId };
    }
    case StreamCategories.walletTx: {
      const transactionId = parts.length === 1 ? canonicalId(parts[0]) : undefined;
      return transactionId === undefined ? undefined : { category, transactionId };
    }
    case StreamCategories.webhookLetter:
      return parts.length === 2 && first !== undefined && second !== undefined
        ? { category, operatorId: first, eventId: second }
        : undefined;
    default:
      return undefined;
  }
}

/** Which event types each category holds (the stream list of docs/architecture.md "Data"). */
const StreamEventTypes = {
  playerBonus: [
    'BonusCallRegistered',
    'FreeSpinStarted',
    'FreeSpinSettled',
    'RegularBonusSpinSettled',
    'BonusCallCompleted',
    'BonusCallExpired',
    'BonusCallCanceled',
  ],
  bonusRequest: ['BonusRequestAccepted'],
  session: ['GameSessionStarted', 'GameSessionEnded'],
  round: ['RoundStarted', 'RoundSettled', 'RoundCanceled'],
  walletTx: [
    'WalletRequested',
    'WalletAttempted',
    'WalletSucceeded',
    'WalletFailed',
    'CancelRequested',
    'CancelSucceeded',
    'WinDeadLettered',
    'WinRefused',
    'StakeRefused',
  ],
  webhookLetter: ['WebhookDeadLettered', 'WebhookRedriveRequested'],
} as const satisfies Record<StreamCategory, readonly EventType[]>;

/** The events a stream of the category holds. */
export type StreamEvent<Category extends StreamCategory> = Extract<
  DomainEvent,
  { type: (typeof StreamEventTypes)[Category][number] }
>;

/** A stored event of a type its stream's category does not hold. Not retriable: the stored event stays what it is. */
export class UnexpectedStreamEventError extends ReelstreamError {
  override readonly name = 'UnexpectedStreamEventError';
  constructor(
    readonly streamId: string,
    readonly type: string,
  ) {
    super('EVENT_NOT_READABLE', `stream ${streamId} holds a ${type} event, which its category does not hold`, {
      retriable: false,
    });
  }
}

/**
 * The parser of a category's streams, made from its event types: a stored event validated and
 * upcast as the category's event; any other type is an UnexpectedStreamEventError.
 */
export function streamEventParser<Category extends StreamCategory>(
  category: Category,
): (recorded: {
  streamId: string;
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: unknown };
}) => StreamEvent<Category> {
  const types: ReadonlySet<string> = new Set(StreamEventTypes[category]);
  return (recorded) => {
    if (!types.has(recorded.type)) throw new UnexpectedStreamEventError(recorded.streamId, recorded.type);
    return parseStoredEvent(recorded) as StreamEvent<Category>;
  };
}
