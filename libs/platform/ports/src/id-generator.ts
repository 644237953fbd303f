/** Source of 53-bit, time-ordered ids (issueId, transactionId, roundId). */
export interface IdGenerator {
  next(): number;
}
