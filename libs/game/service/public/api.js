// The player API of the launch host (D23): every answer is the API envelope; a refusal comes back
// as { ok: false, code } so the page can say why in the player's language.

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    return { ok: false, code: 'NETWORK', status: 0 };
  }
  let envelope;
  try {
    envelope = await response.json();
  } catch {
    return { ok: false, code: 'ERROR', status: response.status };
  }
  if (envelope && envelope.success === true) return { ok: true, data: envelope.data };
  return { ok: false, code: envelope?.error?.code ?? 'ERROR', message: envelope?.message, status: response.status };
}

export function loadSession(token) {
  return request('GET', `api/sessions/${encodeURIComponent(token)}`);
}

export function spin(token, body) {
  return request('POST', `api/sessions/${encodeURIComponent(token)}/spin`, body);
}
