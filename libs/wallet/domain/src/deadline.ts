/**
 * The deadline of a bet or betwin (spec §6.1, §6.3: the operator answers within 3 s of the spin):
 * fixed in the request when the spin is accepted, so a dispatcher that takes the request late
 * knows it. A bet is sent only while enough of its window is left for the operator to answer
 * in it; after that it is recorded as timed out, never sent, and its round is canceled (D9).
 * A win has no deadline: it is retried until it is delivered or dead-lettered (D11).
 */
import { stakeDeadlineOf, type WalletRequest } from '@reelstream/contracts';

/**
 * Less than this left of the window: the bet is not sent. The callback travels and is handled in
 * that time; a call with less left could only be answered after the deadline, and would reach the
 * operator at its very end.
 */
const MIN_SEND_WINDOW_MS = 250;

/** The deadline of a bet or betwin; a request from before deadlines were carried has requestedAt + 3 s. */
export function deadlineOf(request: WalletRequest): string | undefined {
  if (request.command === 'win') return undefined;
  return request.deadline ?? stakeDeadlineOf(request.requestedAt);
}

/** Milliseconds of the request's window left at `now` (ISO); undefined when it has no deadline. */
export function windowLeftMs(request: WalletRequest, now: string): number | undefined {
  const deadline = deadlineOf(request);
  return deadline === undefined ? undefined : Date.parse(deadline) - Date.parse(now);
}

/** Whether the request must not be sent at `now`: too little of its window is left. */
export function pastSendWindow(request: WalletRequest, now: string): boolean {
  const left = windowLeftMs(request, now);
  return left !== undefined && left < MIN_SEND_WINDOW_MS;
}

/** How much longer the request may wait before its call starts, at `now`; undefined when it has no deadline. */
export function sendWithinMs(request: WalletRequest, now: string): number | undefined {
  const left = windowLeftMs(request, now);
  return left === undefined ? undefined : left - MIN_SEND_WINDOW_MS;
}
