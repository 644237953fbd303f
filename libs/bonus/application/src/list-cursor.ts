/**
 * The `cursor` of a bonus-call list page: the issueId of the last item, base64url-encoded so it
 * is opaque and URL-safe (`listCursor` of the API). Pages are newest first.
 */
const ISSUE_ID_TEXT = /^[1-9][0-9]{0,15}$/;

export function encodeListCursor(lastIssueId: number): string {
  return Buffer.from(String(lastIssueId), 'utf8').toString('base64url');
}

/** The issueId a cursor continues after, or undefined when it is not a cursor this ledger wrote. */
export function decodeListCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!ISSUE_ID_TEXT.test(text)) return undefined;
  const issueId = Number(text);
  return Number.isSafeInteger(issueId) && encodeListCursor(issueId) === cursor ? issueId : undefined;
}
