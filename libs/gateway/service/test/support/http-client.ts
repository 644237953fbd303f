/** A small HTTP client for the tests: node's fetch (keep-alive) against the gateway on a free port. */

// Tests read arbitrary JSON answers and assert on their shape; the schemas are checked where it matters.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. */
  token?: string | null;
  /** Serialised as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (with the given headers only). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultToken: string | null = null,
  ) {}

  withToken(token: string | null): HttpClient {
    return new HttpClient(this.baseUrl, token);
  }

  get(path: string, options: CallOptions = {}): Promise<ApiResponse> {
    return this.call('GET', path, options);
  }

  post(path: string, json: unknown, options: CallOptions = {}): Promise<ApiResponse> {
    return this.call('POST', path, { ...options, json });
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? this.defaultToken : options.token;
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}
