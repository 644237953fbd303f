/**
 * The part of Node's built-in `node:sqlite` (Node 22.5+, the project runs Node 24) the read-only
 * store uses: the repository's @types/node is 20, which does not declare it. Remove this file when
 * @types/node reaches 22.13.
 */
declare module 'node:sqlite' {
  type SqlValue = null | number | bigint | string | Uint8Array;

  export interface DatabaseSyncOptions {
    readonly open?: boolean;
    readonly readOnly?: boolean;
  }

  export class StatementSync {
    all(...parameters: SqlValue[]): unknown[];
    get(...parameters: SqlValue[]): unknown;
    setReturnArrays(enabled: boolean): void;
  }

  export class DatabaseSync {
    constructor(path: string | URL, options?: DatabaseSyncOptions);
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
