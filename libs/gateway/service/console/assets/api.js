// The console's only way to the platform: API v1 on this origin, with the operator's token in the
// Authorization header. Every answer is the API's envelope; a refusal becomes an ApiError carrying
// the API's code, message and details, a lost connection the code NETWORK.

export class ApiError extends Error {
  constructor(code, message, status, details = []) {
    super(message);
    this.code = code;
    this.status = status;
    /** For an invalid request, one `{path, message}` per problem. */
    this.details = details;
  }
}

/** A client for one token. */
export function apiClient(token) {
  async function call(method, path, body) {
    const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiError('NETWORK', String(error?.message ?? error), 0);
    }
    let envelope;
    try {
      envelope = await response.json();
    } catch {
      throw new ApiError('INTERNAL', `HTTP ${response.status}`, response.status);
    }
    if (!response.ok || envelope?.success !== true)
      throw new ApiError(
        envelope?.error?.code ?? `HTTP_${response.status}`,
        envelope?.message ?? `HTTP ${response.status}`,
        response.status,
        Array.isArray(envelope?.error?.details) ? envelope.error.details : [],
      );
    return envelope.data;
  }
  const query = (params) => {
    const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== '');
    return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
  };
  const id = (value) => encodeURIComponent(String(value));
  return {
    providers: () => call('GET', '/v1/providers'),
    games: () => call('GET', '/v1/games'),
    bonusCalls: (filter) => call('GET', `/v1/bonus-call${query(filter)}`),
    bonusCall: (issueId) => call('GET', `/v1/bonus-call/${id(issueId)}`),
    cancel: (issueId) => call('POST', '/v1/bonus-call/cancel', { issueId: String(issueId) }),
    startCampaign: (body) => call('POST', '/v1/bonus-call/campaigns', body),
    campaign: (campaignId, cursor) => call('GET', `/v1/bonus-call/campaigns/${id(campaignId)}${query({ cursor })}`),
    transactions: (filter) => call('GET', `/v1/transactions${query(filter)}`),
    round: (roundId) => call('GET', `/v1/rounds/${id(roundId)}`),
    launch: (body) => call('POST', '/v1/game/launch', body),
    walletHealth: () => call('GET', '/v1/wallet/health'),
    deadWins: (cursor) => call('GET', `/v1/wallet/dead-letters${query({ cursor })}`),
    redriveWin: (transactionId) => call('POST', `/v1/wallet/dead-letters/${id(transactionId)}/redrive`),
    deadWebhooks: (cursor) => call('GET', `/v1/webhooks/dead-letters${query({ cursor })}`),
    redriveWebhook: (eventId) => call('POST', `/v1/webhooks/dead-letters/${id(eventId)}/redrive`),
  };
}
