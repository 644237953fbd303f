import { ok } from '@reelstream/contracts';
import type { Response } from 'express';

/** `{success: true, message: "OK", data}` with 200. (A refusal: thrown as a `RefusedError`, answered by the error handler.) */
export function sendOk(res: Response, data: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.status(200).set(headers).json(ok(data));
}
