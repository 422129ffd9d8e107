/**
 * `hoga db orders --mode backtest` shows an amount order's amount in its market's currency: a KR
 * symbol's in KRW (an amount buy of a KR stock, which the broker takes for US stocks only, is
 * denied and listed with what it asked for), a US one's in USD. Before, every amount showed in USD
 * (`100000 USD` for 005930). A database file the journal's rows are written to, read by `hoga` as a
 * child process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backtestOrderIdPrefix, HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

const T0 = Date.parse('2026-11-23T09:30:00+09:00');
const RUN = '0123abcd-4567-89ef-0000-00000000a001';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-db-orders-amount-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An amount buy's summary as a backtest journals it. */
function amountOrder(n: number, symbol: string, amount: string, last: string, reason: string | null) {
  const clientOrderId = `${backtestOrderIdPrefix(RUN)}-${n}`;
  return {
    type: 'OrderSummary',
    tsEvent: T0 + n * 60_000,
    tsInit: T0 + n * 60_000,
    mode: 'backtest' as const,
    strategyId: 'sizer',
    clientOrderId,
    payload: {
      clientOrderId,
      strategyId: 'sizer',
      symbol,
      side: 'BUY',
      orderType: 'MARKET',
      price: null,
      quantity: null,
      amount,
      last,
      events: [[last, T0 + n * 60_000]],
      fills: [],
      reason,
    },
  };
}

describe('hoga db orders --mode backtest of amount orders', () => {
  it("shows each amount in its symbol's currency", async () => {
    const db = HogaDatabase.open(file);
    db.journal.appendMany([
      amountOrder(
        1,
        '005930',
        '100000',
        'OrderDenied',
        'amount-order-not-allowed: KR stocks take quantities',
      ),
      amountOrder(2, 'AAPL', '300', 'OrderCanceled', null),
    ]);
    db.close();
    const listed = await hoga(['db', 'orders', '--mode', 'backtest', '--run', RUN, '--db', file]);
    expect(listed.code, listed.err).toBe(0);
    const rows = listed.out.split('\n');
    expect(rows.find((r) => r.includes('005930'))).toMatch(/ 100000 KRW /);
    expect(rows.find((r) => r.includes('AAPL'))).toMatch(/ 300 USD /);
    expect(listed.out).not.toContain('100000 USD');
  });
});
