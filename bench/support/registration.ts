/** A free-spin registration body for the benches: a new platformId and player per call. */
let sequence = 0;
export function benchRegistration(expireAt = '2099-12-31 23:59:59'): string {
  sequence += 1;
  return JSON.stringify({
    platformId: `bench-${process.pid}-${sequence}`,
    providerId: 1,
    gameId: [101, 102],
    playerId: `bench_player_${sequence}`,
    bonusType: 1,
    callAmount: 50,
    expireAt,
    metaData: { spinAmount: 10, baseBetAmount: 0.2 },
  });
}
