/**
 * A store holding one order with a value the code cannot read (a column edited by hand, a newer
 * version's state): `hoga db orders` lists the others and names the one it left out, with what was
 * wrong in it, and exits 1 so that a script notices. Before, the whole listing failed with
 * `stored orders.price: expected a decimal string …`, naming neither the order nor its row. The
 * real `hoga` as a child process over a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-bad-value-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Three live orders; the second's price then set to `abc` by hand. */
function storeWithBadPrice(): void {
  const db = HogaDatabase.open(file);
  try {
    for (const [i, id] of ['ord-a', 'ord-b', 'ord-c'].entries()) {
      db.orders.recordIntent({
        clientOrderId: id,
        strategyId: 'sma',
        mode: 'live',
        symbol: '005930',
        market: 'KR',
        currency: 'KRW',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'DAY',
        price: new Decimal('72100'),
        quantity: new Decimal('10'),
        amount: null,
        createdAt: Date.parse('2026-11-23T09:00:00+09:00') + i * 1000,
      });
    }
    db.connection.prepare("UPDATE orders SET price = 'abc' WHERE client_order_id = 'ord-b'").run();
  } finally {
    db.close();
  }
}

const LEFT_OUT =
  'hoga db: order ord-b (row 2) left out: stored orders.price: expected a decimal string like "72100" or "-0.25", found "abc"';

describe('hoga db orders over a store with one unreadable order', () => {
  it('lists the others, names the one left out and what was wrong, exit 1', async () => {
    storeWithBadPrice();
    const r = await hoga(['db', 'orders', '--db', file]);
    expect(r.out).toContain('ord-a');
    expect(r.out).toContain('ord-c');
    expect(r.out).not.toContain('ord-b');
    expect(r.err).toContain(LEFT_OUT);
    expect(r.code).toBe(1);
  });

  it('--json: the others as JSON on stdout, the one left out on stderr', async () => {
    storeWithBadPrice();
    const r = await hoga(['db', 'orders', '--json', '--db', file]);
    expect((JSON.parse(r.out) as { clientOrderId: string }[]).map((o) => o.clientOrderId)).toEqual([
      'ord-a',
      'ord-c',
    ]);
    expect(r.err).toContain('ord-b (row 2) left out');
    expect(r.code).toBe(1);
  });
});
