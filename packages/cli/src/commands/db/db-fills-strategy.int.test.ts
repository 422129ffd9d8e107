/**
 * `hoga db fills` of a store several strategies trade on says whose each fill is, as `hoga db
 * orders` does: a `strategy` column (after the broker order id, as in `db orders`) and `--strategy
 * ID` to list one strategy's fills. Before, the table had no strategy and the command no filter: of
 * two strategies' fills of 005930 a quant could not tell which was whose without `--json`. The real
 * `hoga` as a child process, over a SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

const T0 = Date.parse('2026-11-23T09:35:00+09:00');
let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-db-fills-strategy-'));
  file = join(dir, 'hoga.sqlite');
  const db = HogaDatabase.open(file);
  const fill = (strategyId: string, clientOrderId: string, quantity: string, at: number) => {
    const order = db.orders.recordIntent({
      strategyId,
      clientOrderId,
      mode: 'paper',
      market: 'KR',
      currency: 'KRW',
      symbol: '005930',
      side: 'BUY',
      orderType: 'MARKET',
      timeInForce: 'DAY',
      price: null,
      quantity: new Decimal(quantity),
      amount: null,
      createdAt: at,
    });
    db.orders.linkBrokerOrderId(clientOrderId, `paper-${clientOrderId}`, 'create', at);
    db.fills.record({
      orderId: order.id,
      brokerOrderId: `paper-${clientOrderId}`,
      symbol: '005930',
      side: 'BUY',
      quantity: new Decimal(quantity),
      price: new Decimal('66300'),
      commission: new Decimal('99'),
      commissionCurrency: 'KRW',
      filledAt: at + 500,
      cumulativeQuantity: new Decimal(quantity),
    });
  };
  fill('a', 'ord-a', '10', T0);
  fill('b', 'ord-b', '3', T0 + 60_000);
  db.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('hoga db fills of several strategies', () => {
  it('names each fill’s strategy and lists one strategy’s with --strategy', async () => {
    const all = await hoga(['db', 'fills', '--db', file, '--csv']);
    expect(all.code).toBe(0);
    expect(all.out.trimEnd().split('\n')).toEqual([
      'filled,clientOrderId,brokerOrderId,strategy,symbol,side,qty,price,commission,tax,cumulative',
      '2026-11-23 09:35:00,ord-a,paper-ord-a,a,005930,BUY,10,66300,99 KRW,-,10',
      '2026-11-23 09:36:00,ord-b,paper-ord-b,b,005930,BUY,3,66300,99 KRW,-,3',
    ]);
    const b = await hoga(['db', 'fills', '--db', file, '--strategy', 'b', '--json']);
    expect(b.code).toBe(0);
    expect(
      (JSON.parse(b.out) as { clientOrderId: string; strategyId: string }[]).map((f) => f.clientOrderId),
    ).toEqual(['ord-b']);
    const none = await hoga(['db', 'fills', '--db', file, '--strategy', 'c']);
    expect(none.code).toBe(0);
    expect(none.out).toBe(`no fills in ${file} match\n`);
  }, 60_000);
});
