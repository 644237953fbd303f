import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import got, { type Got } from 'got';

/**
 * The got client that POSTs to an operator (callbacks and webhooks): one attempt per call (the
 * dispatcher decides about retries), every status answered rather than thrown, no redirects
 * followed, the body kept as text, over the caller's keep-alive agents.
 */
export function operatorPostClient(agents: { http: HttpAgent; https: HttpsAgent }): Got {
  return got.extend({
    method: 'POST',
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
    responseType: 'text',
    agent: agents,
  });
}
