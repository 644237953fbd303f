/**
 * An operator's gateway limits are the gateway group's, not each pod's
 * (docs/adr/0042-gateway-limits-divided-by-a-group-of-its-own.md): every gateway pod joins the `gateway`
 * consumer group on `gateway.limits`, a topic nobody writes, and keeps its share of the partitions of
 * each per-operator rate limit and of the campaign budget.
 */
import { GATEWAY_LIMITS_GROUP, TopicPartitions, Topics } from '@reelstream/contracts';
import type { RateLimitConfig } from '@reelstream/platform-http';
import { joinShareGroup, type Consumer, type MessageBus } from '@reelstream/platform-ports';

/** The smallest share a pod that holds a partition keeps; a pod before its first join keeps this too. */
const ONE_PARTITION = 1 / (TopicPartitions[Topics.gatewayLimits] ?? 1);

/**
 * A limit meant for every gateway pod together, as one pod with `share` of the partitions keeps it: the
 * rate times the share, never below one partition's part (a pod not yet joined, or holding none, still
 * refills); the bucket times the share rounded up, at least one request. Over the pods the rates add up to
 * the configured rate and the buckets to at most the configured bucket plus one request per pod.
 */
export function rateLimitForShare(limit: RateLimitConfig, share: number): RateLimitConfig {
  const bounded = Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 0;
  return {
    perSecond: limit.perSecond * Math.max(bounded, ONE_PARTITION),
    burst: Math.max(1, Math.ceil(limit.burst * bounded)),
  };
}

/**
 * Joins the `gateway` group on `gateway.limits` and resolves once it holds its partitions: from then on
 * `share` is this pod's part, changed by each rebalance (a pod added or gone). Nothing arrives there.
 */
export function joinGatewayLimitsGroup(bus: MessageBus): Promise<Consumer> {
  return joinShareGroup(bus, GATEWAY_LIMITS_GROUP, Topics.gatewayLimits);
}
