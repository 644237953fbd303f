import { describe, expect, it } from '@jest/globals';
import type { WalletRequest } from '@reelstream/contracts';
import type { WalletTransaction } from '../audit/wallet-transaction.js';
import { OperatorCsvError, parseOperatorCsv } from './operator-csv.js';
import { reconcile } from './reconcile.js';

const parties = {
  operatorId: 'acme',
  playerId: 'p1',
  roundId: 9,
  providerId: 1,
  gameId: 101,
  currency: 'EUR',
  bonusId: 0,
  requestedAt: '2026-01-01T00:00:00.000Z',
};
function bet(transactionId: number, amountMinor: number, more: Partial<WalletTransaction> = {}): WalletTransaction {
  const request: WalletRequest = { command: 'bet', transactionId, ...parties, amountMinor, isBonusBusy: false };
  return {
    transactionId,
    request,
    amountMinor: -amountMinor,
    outcome: 'applied',
    statusCode: 'OK',
    deadLettered: false,
    cancel: undefined,
    ...more,
  };
}
function win(transactionId: number, amountMinor: number, more: Partial<WalletTransaction> = {}): WalletTransaction {
  const request: WalletRequest = { command: 'win', transactionId, ...parties, amountMinor, isRoundFinished: true };
  return {
    transactionId,
    request,
    amountMinor,
    outcome: 'applied',
    statusCode: 'OK',
    deadLettered: false,
    cancel: undefined,
    ...more,
  };
}
const csv = (...rows: string[]) =>
  parseOperatorCsv(['transactionId,command,amount,currency,status', ...rows].join('\n'));
const kinds = (summary: ReturnType<typeof reconcile>) => summary.differences.map((d) => `${d.kind} ${d.transactionId}`);

describe('reconcile', () => {
  it('accepts books that hold exactly what the log says, including a refused bet and a win never answered', () => {
    const log = [
      bet(1, 100),
      win(2, 250),
      bet(3, 5000, { outcome: 'refused', statusCode: 'ERR_NOT_ENOUGH_MONEY' }),
      win(4, 80, { outcome: 'unknown', statusCode: undefined, deadLettered: true }),
    ];
    const summary = reconcile(log, csv('1,bet,-1.00,EUR,OK', '2,win,2.50,EUR,OK', '3,bet,0,EUR,ERR_NOT_ENOUGH_MONEY'));
    expect(summary).toMatchObject({ differences: [], matched: 3, operatorRows: 3 });
  });

  it('reports rows on one side only, duplicates, and status, currency and command differences', () => {
    const log = [
      bet(1, 100),
      win(2, 250),
      bet(3, 5000, { outcome: 'refused', statusCode: 'ERR_NOT_ENOUGH_MONEY' }),
      win(4, 10),
    ];
    const summary = reconcile(
      log,
      csv(
        '1,bet,-1.00,USD,OK',
        '2,win,2.50,EUR,ERR_UNKNOWN',
        '3,bet,0,EUR,ERR_LIMIT',
        '7,win,1.00,EUR,OK',
        '7,win,1.00,EUR,OK',
        '4,bet,0.10,EUR,OK',
      ),
    );
    expect(kinds(summary)).toEqual([
      'currency_mismatch 1',
      'amount_mismatch 2',
      'status_mismatch 2',
      'status_mismatch 3',
      'command_mismatch 4',
      'duplicate_row 7',
      'missing_in_log 7',
    ]);
    expect(kinds(reconcile(log, csv('1,bet,-1.00,EUR,OK')))).toEqual([
      'missing_at_operator 2',
      'missing_at_operator 4',
    ]);
  });

  it('holds a cancel to what its transaction moved at the operator', () => {
    const canceled = bet(1, 100, {
      outcome: 'unknown',
      statusCode: undefined,
      cancel: { cancelTransactionId: 2, outcome: 'applied' },
    });
    // the bet never reached the operator: nothing to refund
    expect(reconcile([canceled], csv('2,cancel,0,EUR,OK')).differences).toEqual([]);
    // it did, and the cancel gave it back
    expect(reconcile([canceled], csv('1,bet,-1.00,EUR,OK', '2,cancel,1.00,EUR,OK')).differences).toEqual([]);
    // a refund without the bet, a refund of another amount, a bet kept without its cancel
    expect(kinds(reconcile([canceled], csv('2,cancel,1.00,EUR,OK')))).toEqual(['cancel_without_transaction 2']);
    expect(kinds(reconcile([canceled], csv('1,bet,-1.00,EUR,OK', '2,cancel,2.00,EUR,OK')))).toEqual([
      'amount_mismatch 2',
    ]);
    expect(kinds(reconcile([canceled], csv('1,bet,-1.00,EUR,OK')))).toEqual(['not_reverted 2']);
  });
});

describe('reconcile: amounts signed or as the callbacks carried them', () => {
  const books = () => [
    bet(1, 100),
    win(2, 250),
    bet(3, 5000, { outcome: 'refused', statusCode: 'ERR_NOT_ENOUGH_MONEY' }),
    win(4, 80, { outcome: 'unknown', statusCode: undefined, deadLettered: true }),
  ];

  it('reads an export with the amounts the callbacks carried (positive, the command giving the direction)', () => {
    const carried = reconcile(
      books(),
      csv('1,bet,1.00,EUR,OK', '2,win,2.50,EUR,OK', '3,bet,50.00,EUR,ERR_NOT_ENOUGH_MONEY'),
    );
    expect(carried).toMatchObject({ differences: [], matched: 3, amounts: { convention: 'carried', how: 'detected' } });
    expect(carried.amounts.detail).toBe('amounts as the callbacks carried them (0 bet row(s) negative, 2 positive)');
    // a refused row may say 0 as well: it moved nothing
    expect(
      reconcile(books(), csv('1,bet,1.00,EUR,OK', '3,bet,0,EUR,ERR_NOT_ENOUGH_MONEY', '2,win,2.50,EUR,OK')).differences,
    ).toEqual([]);
    const signed = reconcile(
      books(),
      csv('1,bet,-1.00,EUR,OK', '2,win,2.50,EUR,OK', '3,bet,0,EUR,ERR_NOT_ENOUGH_MONEY'),
    );
    expect(signed).toMatchObject({ differences: [], matched: 3, amounts: { convention: 'signed', how: 'detected' } });
  });

  it('holds a carried amount to what the callback carried, once', () => {
    const summary = reconcile(
      books(),
      csv('1,bet,1.50,EUR,OK', '2,win,2.50,EUR,OK', '3,bet,5.00,EUR,ERR_NOT_ENOUGH_MONEY'),
    );
    expect(summary.differences).toEqual([
      {
        kind: 'amount_mismatch',
        transactionId: 1,
        line: 2,
        detail: "the operator's bet carried 1.50 EUR, the callback 1.00 EUR",
      },
      {
        kind: 'amount_mismatch',
        transactionId: 3,
        line: 4,
        detail: "the operator's bet carried 5.00 EUR, the callback 50.00 EUR",
      },
    ]);
    expect(summary.matched).toBe(1);
  });

  it('a refused bet followed by its cancel is a match, in either convention', () => {
    const refused = bet(3, 20, {
      outcome: 'refused',
      statusCode: 'ERR_NOT_ENOUGH_MONEY',
      cancel: { cancelTransactionId: 4, outcome: 'applied' },
    });
    const carried = reconcile([refused], csv('3,bet,0.20,EUR,ERR_NOT_ENOUGH_MONEY', '4,cancel,0.20,EUR,OK'));
    expect(carried).toMatchObject({ differences: [], matched: 2, amounts: { convention: 'carried' } });
    const signed = reconcile([refused], csv('3,bet,0,EUR,ERR_NOT_ENOUGH_MONEY', '4,cancel,0,EUR,OK'));
    expect(signed).toMatchObject({ differences: [], matched: 2, amounts: { convention: 'signed' } });
  });

  it('holds a carried cancel to its bet: given back once, of the bet’s amount, and not left out', () => {
    const canceled = bet(1, 100, {
      outcome: 'unknown',
      statusCode: undefined,
      cancel: { cancelTransactionId: 2, outcome: 'applied' },
    });
    expect(reconcile([canceled], csv('1,bet,1.00,EUR,OK', '2,cancel,1.00,EUR,OK')).differences).toEqual([]);
    expect(kinds(reconcile([canceled], csv('1,bet,1.00,EUR,OK', '2,cancel,2.00,EUR,OK')))).toEqual([
      'amount_mismatch 2',
    ]);
    expect(kinds(reconcile([canceled], csv('1,bet,1.00,EUR,OK')))).toEqual(['not_reverted 2']);
  });

  it('reads as told, and as signed when no bet row tells the conventions apart', () => {
    const told = reconcile(books(), csv('1,bet,1.00,EUR,OK', '2,win,2.50,EUR,OK'), 'signed');
    expect(told.amounts).toEqual({ convention: 'signed', how: 'given', detail: 'signed changes to the balance' });
    expect(kinds(told)).toEqual(['amount_mismatch 1']);
    expect(reconcile(books(), csv('1,bet,-1.00,EUR,OK', '2,win,2.50,EUR,OK'), 'carried').differences).toHaveLength(1);
    expect(reconcile([win(2, 250)], csv('2,win,2.50,EUR,OK')).amounts).toMatchObject({
      convention: 'signed',
      how: 'default',
    });
  });
});

describe('the operator CSV', () => {
  it('reads the columns in any order, quoted fields and a BOM, and amounts in the currency’s units', () => {
    const rows = parseOperatorCsv(
      '\uFEFFstatus,currency,amount,command,transactionId,note\r\nOK,KRW,-1000,bet,5,"a, b"\r\n',
    );
    expect(rows).toEqual([
      { line: 2, transactionId: 5, command: 'bet', amountMinor: -1000, currency: 'KRW', status: 'OK' },
    ]);
  });

  it('refuses a missing column, a bad id, an unknown command and an amount finer than the currency', () => {
    const bad = (text: string) => () => parseOperatorCsv(text);
    expect(bad('transactionId,command,amount,currency\n')).toThrow(/the header lacks status/);
    expect(bad('transactionId,command,amount,currency,status\nx1,bet,1,EUR,OK')).toThrow(/line 2: transactionId "x1"/);
    expect(bad('transactionId,command,amount,currency,status\n1,refund,1,EUR,OK')).toThrow(OperatorCsvError);
    expect(bad('transactionId,command,amount,currency,status\n1,bet,1.001,EUR,OK')).toThrow(/more than 2 decimal/);
  });
});

describe('reconcile, an export from the house side', () => {
  const log = [
    bet(11, 100),
    win(12, 250),
    bet(13, 300),
    win(14, 0),
    bet(15, 5000, { outcome: 'refused', statusCode: 'ERR_NOT_ENOUGH_MONEY' }),
  ];
  const house = [
    '11,bet,1.00,EUR,OK',
    '12,win,-2.50,EUR,OK',
    '13,bet,3.00,EUR,OK',
    '14,win,0.00,EUR,OK',
    '15,bet,0,EUR,ERR_NOT_ENOUGH_MONEY',
  ];

  it('sees every bet with the opposite sign, says so once and compares with the sign flipped', () => {
    const summary = reconcile(log, csv(...house));
    expect(summary.amounts).toMatchObject({ convention: 'flipped', how: 'detected' });
    expect(summary.amounts.detail).toContain("every bet in the file has the opposite sign of the platform's");
    expect(summary).toMatchObject({ differences: [], matched: 5 });
  });

  it('still reports what differs once the signs are flipped', () => {
    const altered = house.map((row) => (row.startsWith('12,') ? '12,win,-25.00,EUR,OK' : row));
    const summary = reconcile(log, csv(...altered));
    expect(summary.amounts.convention).toBe('flipped');
    expect(kinds(summary)).toEqual(['amount_mismatch 12']);
  });

  it('reads positive bets with positive wins as carried, and takes --amounts flipped when told', () => {
    expect(reconcile(log, csv('11,bet,1.00,EUR,OK', '12,win,2.50,EUR,OK')).amounts.convention).toBe('carried');
    const told = reconcile(log.slice(0, 1), csv('11,bet,1.00,EUR,OK'), 'flipped');
    expect(told).toMatchObject({ amounts: { convention: 'flipped', how: 'given' }, differences: [], matched: 1 });
    // Read as signed, the same house-side rows all differ: the detection is what keeps them matching.
    expect(reconcile(log, csv(...house), 'signed').differences.length).toBe(3);
  });
});
