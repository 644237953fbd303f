/**
 * The bonus context's kinds of stream, each a command handler bound once (@reelstream/platform-eventsourcing):
 * the player's bonus account and the platformId guard. Campaign streams have their own stored form
 * (campaigns.ts).
 */
import { bonusDecider, registrationGuardDecider } from '@reelstream/bonus-domain';
import { bonusRequestStream, playerBonusStream, streamEventParser } from '@reelstream/contracts';
import { commandHandler } from '@reelstream/platform-eventsourcing';

/** A stored event of a `playerBonus` stream, validated and upcast; another type is not readable. */
export const parsePlayerBonusEvent = streamEventParser('playerBonus');

/** `playerBonus-{operatorId}-{playerId}`: every bonus call of one player, one lock (D11). */
export const playerBonusStreams = commandHandler({
  decider: bonusDecider,
  streamId: ({ operatorId, playerId }: { operatorId: string; playerId: string }) =>
    playerBonusStream(operatorId, playerId),
  parse: parsePlayerBonusEvent,
});

/** `bonusRequest-{operatorId}-{platformId}`: the platformId reserved for one request (D17). */
export const bonusRequestStreams = commandHandler({
  decider: registrationGuardDecider,
  streamId: ({ operatorId, platformId }: { operatorId: string; platformId: string }) =>
    bonusRequestStream(operatorId, platformId),
  parse: streamEventParser('bonusRequest'),
});
