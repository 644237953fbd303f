/** node's fetch against the services on their free ports, JSON in and out. */

// Tests read arbitrary JSON answers and assert on their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface JsonResponse<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export async function call(
  method: string,
  url: string,
  options: { json?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
