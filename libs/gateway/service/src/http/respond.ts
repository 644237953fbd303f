import { ok } from '@reelstream/contracts';
import type { Response } from 'express';

/** `{success: true, message: "OK", data}` with 200. (Errors: `sendApiError` of @reelstream/platform-http.) */
export function sendOk(res: Response, data: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.status(200).set(headers).json(ok(data));
}
