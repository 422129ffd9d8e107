import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClientOrderId, Decimal, newEventId, strategyId as toStrategyId } from '@hoga/core';
import { OrderManager } from '@hoga/engine';
import { startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { connect } from './broker/connection.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';
import { registerOrderCommand } from './order.js';
import { registerRiskCommand } from './risk.js';

const t = useCliSimulator('hoga-order-cli-', { speed: 0, control: true }, ['HOGA_RISK_CONFIG']);
const dbFile = join(t.dir, 'hoga.sqlite');

/** Runs `hoga <args>` in-process with the order and risk commands; returns output and exit code. */
async function hoga(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    out.push(parts.join(' '));
  });
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  const program = new Command('hoga').exitOverride().enablePositionalOptions();
  registerOrderCommand(program);
  registerRiskCommand(program);
  try {
    await program.parseAsync(['node', 'hoga', ...args]);
  } finally {
    log.mockRestore();
    write.mockRestore();
  }
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  process.exitCode = undefined;
  return { out: out.join('\n'), err: err.join(''), code };
}

const connection = () => [...simFlags(t.sim.url), '--db', dbFile, '--sim-clock'];
const engineFlags = () => ({ baseUrl: t.sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' });

/** The stored order's price, quantity and state, as hoga db orders lists them. */
function stored(clientOrderId: string): Record<string, string | undefined> {
  const db = HogaDatabase.open(dbFile, { readonly: true });
  try {
    const order = db.orders.get(clientOrderId);
    return { price: order?.price?.toFixed(), quantity: order?.quantity?.toFixed(), state: order?.state };
  } finally {
    db.close();
  }
}

async function openOrders(): Promise<number> {
  return t.sim.counters().requestsByGroup.ORDER ?? 0;
}

describe('hoga order', () => {
  it('--check prints accepted, exits 0 and sends nothing', async () => {
    const before = await openOrders();
    const { out, code } = await hoga(
      'order',
      'buy',
      '005930',
      '10',
      '--limit',
      '65000',
      '--check',
      ...connection(),
    );
    expect(out).toBe('accepted');
    expect(code).toBe(0);
    expect(await openOrders()).toBe(before);
  });

  it('--check prints the broker code of a denial and exits 3 (price limits, high value, buying power)', async () => {
    const high = await hoga(
      'order',
      'buy',
      '005930',
      '1',
      '--limit',
      '99000',
      '--check',
      '--json',
      ...connection(),
    );
    expect(high.code).toBe(3);
    expect(JSON.parse(high.out)).toMatchObject({
      verdict: 'denied',
      code: 'price-out-of-range',
      sent: false,
    });
    const big = await hoga('order', 'buy', '005930', '2000', '--limit', '60000', '--check', ...connection());
    expect(big.code).toBe(3);
    expect(big.out).toMatch(/^denied: confirm-high-value-required: /);
    const confirmed = await hoga(
      'order',
      'buy',
      '005930',
      '2000',
      '--limit',
      '60000',
      '--confirm-high-value',
      '--check',
      ...connection(),
    );
    expect(confirmed.out).toMatch(/^denied: insufficient-buying-power: /);
  });

  it('sends an accepted order through the order manager, stores it, modifies and cancels it', async () => {
    const placed = await hoga('order', 'buy', '005930', '1', '--limit', '60000', '--json', ...connection());
    expect(placed.code).toBe(0);
    const answer = JSON.parse(placed.out) as { clientOrderId: string; brokerOrderId: string; sent: boolean };
    expect(answer.sent).toBe(true);
    expect(answer.brokerOrderId).toMatch(/.+/);
    const db = HogaDatabase.open(dbFile);
    expect(db.orders.get(answer.clientOrderId)).toMatchObject({ symbol: '005930', side: 'BUY' });
    db.close();
    // a KR sell while that buy is open: the broker's opposite-side rule, locally
    const opposite = await hoga(
      'order',
      'sell',
      '005930',
      '1',
      '--limit',
      '70000',
      '--check',
      ...connection(),
    );
    expect(opposite.out).toMatch(/^denied: opposite-pending-order-exists/);
    // the price alone: a KR modify's quantity (the broker needs one) is the unfilled rest
    const modify = await hoga(
      'order',
      'modify',
      answer.clientOrderId,
      '--limit',
      '60100',
      '--json',
      ...connection(),
    );
    expect(modify.code).toBe(0);
    expect(JSON.parse(modify.out)).toMatchObject({
      sent: true,
      outcome: 'sent',
      clientOrderId: answer.clientOrderId,
    });
    const offGrid = await hoga(
      'order',
      'modify',
      answer.clientOrderId,
      '--limit',
      '60050',
      '--quantity',
      '1',
      '--check',
      ...connection(),
    );
    expect(offGrid.code).toBe(3);
    expect(offGrid.out).toMatch(/^denied: invalid-request: /);
    const cancel = await hoga('order', 'cancel', answer.clientOrderId, '--json', ...connection());
    expect(cancel.code).toBe(0);
    expect(JSON.parse(cancel.out)).toMatchObject({ sent: true, clientOrderId: answer.clientOrderId });
  });

  it('brings the store up to date with the broker: an order that filled at once is stored FILLED with its fill, and a cancel of it is denied as filled', async () => {
    const placed = await hoga('order', 'buy', '005930', '2', '--limit', '80000', '--json', ...connection());
    expect(placed.code, placed.err).toBe(0);
    const { clientOrderId, events } = JSON.parse(placed.out) as { clientOrderId: string; events: string[] };
    expect(events).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
    const stored = () => {
      const db = HogaDatabase.open(dbFile, { readonly: true });
      try {
        const order = db.orders.get(clientOrderId);
        return {
          state: order?.state,
          fills: order == null ? [] : db.fills.byOrder(order.id).map((f) => f.quantity.toFixed()),
        };
      } finally {
        db.close();
      }
    };
    const cancel = await hoga('order', 'cancel', clientOrderId, ...connection());
    expect(cancel.out).toMatch(/^denied: already-filled/);
    expect(cancel.code).toBe(3);
    // before: the store kept the order ACCEPTED with no fill until a live run polled
    expect(stored()).toEqual({ state: 'FILLED', fills: ['2'] });
  });

  it('a modify stores the price the broker now holds, and a cancel leaves the order CANCELED at once', async () => {
    // Before: hoga db orders kept the create's price (with the new broker order id), and the order
    // stayed PENDING_CANCEL after the cancel until a live run polled (a second cancel was denied).
    const placed = await hoga('order', 'buy', '005930', '1', '--limit', '60000', '--json', ...connection());
    const { clientOrderId } = JSON.parse(placed.out) as { clientOrderId: string };
    const modify = await hoga('order', 'modify', clientOrderId, '--limit', '59500', ...connection());
    expect(modify.code, modify.err).toBe(0);
    expect(stored(clientOrderId)).toMatchObject({ price: '59500', quantity: '1', state: 'ACCEPTED' });
    const cancel = await hoga('order', 'cancel', clientOrderId, ...connection());
    expect(cancel.code, cancel.err).toBe(0);
    expect(stored(clientOrderId)).toMatchObject({ price: '59500', state: 'CANCELED' });
  });

  it('a cancel while a running engine modifies the order follows it to its newest broker order', async () => {
    // Before: the cancel went to the broker order the engine was replacing, got the broker's 409
    // already-modified, and hoga order cancel exited 1 (the audit's first cancel).
    const placed = await hoga('order', 'buy', '005930', '2', '--limit', '60000', '--json', ...connection());
    const { clientOrderId, brokerOrderId } = JSON.parse(placed.out) as {
      clientOrderId: string;
      brokerOrderId: string;
    };
    const connected = connect({ ...engineFlags(), db: dbFile });
    const db = HogaDatabase.open(dbFile);
    const clock = { now: () => t.sim.now(), nowMs: () => t.sim.now().toMillis() };
    const engine = new OrderManager(connected.client, db, clock);
    try {
      t.sim.injectFault({
        kind: 'delay-after-commit',
        path: '/api/v1/orders/*/modify',
        count: 1,
        delayMs: 1_500,
      });
      const modifying = engine.execute({
        type: 'ModifyOrder',
        commandId: newEventId(),
        strategyId: toStrategyId('engine'),
        tsInit: 0,
        clientOrderId: clientOrderId as ClientOrderId,
        orderType: 'LIMIT',
        price: new Decimal('59000'),
        quantity: new Decimal('2'),
        confirmHighValue: false,
      });
      while ((await connected.client.getOrder(brokerOrderId)).status !== 'REPLACED') await sleep(20);
      const cancel = await hoga('order', 'cancel', clientOrderId, '--json', ...connection());
      await modifying;
      expect(cancel.code, `${cancel.out}${cancel.err}`).toBe(0);
      const answer = JSON.parse(cancel.out) as { outcome: string; events: string[] };
      expect(answer.outcome).toBe('sent');
      expect(answer.events).toEqual(['OrderCancelRequested', 'OrderCanceled']);
      expect(stored(clientOrderId)).toMatchObject({ price: '59000', state: 'CANCELED' });
      const lineage = db.orders.brokerOrderIds(clientOrderId);
      const replacement = lineage.find((l) => l.kind === 'modify')?.brokerOrderId ?? '';
      expect((await connected.client.getOrder(replacement)).status).toBe('CANCELED');
    } finally {
      db.close();
      connected.close();
    }
  });

  it('denies a new order while the account is HALTED by hand, and accepts again after hoga risk reset', async () => {
    const set = await hoga('risk', 'set', 'HALTED', '--account', '--reason', 'test', '--db', dbFile);
    expect(set.out).toBe('risk: account HALTED (manual: test)');
    const denied = await hoga('order', 'buy', '005930', '1', '--limit', '60000', '--check', ...connection());
    expect(denied.code).toBe(3);
    expect(denied.out).toMatch(/^denied: risk-halted: /);
    const reset = await hoga('risk', 'reset', '--db', dbFile);
    expect(reset.out).toContain('risk: all ACTIVE');
    const again = await hoga('order', 'buy', '005930', '1', '--limit', '60000', '--check', ...connection());
    expect(again.code).toBe(0);
    const db = HogaDatabase.open(dbFile);
    const changes = db.journal.readFrom(1).filter((e) => e.type === 'TradingStateChanged');
    expect(changes.map((e) => (e.payload as { to: string }).to)).toEqual(['HALTED', 'ACTIVE']);
    db.close();
  });

  it("keeps paper's trading states apart (--mode paper): a paper halt does not deny hoga order", async () => {
    const set = await hoga('risk', 'set', 'HALTED', '--account', '--mode', 'paper', '--db', dbFile);
    expect(set.out).toBe('risk: account HALTED (manual: set by hand)');
    expect((await hoga('risk', 'status', '--db', dbFile)).out).toBe('risk: all ACTIVE');
    const taken = await hoga('order', 'buy', '005930', '1', '--limit', '60000', '--check', ...connection());
    expect(taken.code).toBe(0);
    const reset = await hoga('risk', 'reset', '--mode', 'paper', '--db', dbFile);
    // the scope as the status line names it (before: reset: {"kind":"account"}), with what it cleared
    expect(reset.out).toBe('cleared account HALTED (manual: set by hand)\nrisk: all ACTIVE');
    await expect(hoga('risk', 'status', '--mode', 'backtest', '--db', dbFile)).rejects.toThrow(
      'expected live or paper, found "backtest"',
    );
  });

  it('--at judges the order at another instant (Saturday: order-hours-closed)', async () => {
    const { out, code } = await hoga(
      'order',
      'buy',
      '005930',
      '1',
      '--limit',
      '60000',
      '--check',
      '--at',
      '2026-11-28T10:00:00+09:00',
      ...connection(),
    );
    expect(code).toBe(3);
    expect(out).toMatch(/^denied: order-hours-closed: /);
  });

  it('says an unknown order is not in the store, without calling it unexpected (exit 1)', async () => {
    for (const verb of [
      ['cancel', 'nope'],
      ['modify', 'nope', '--limit', '60000'],
    ]) {
      const { code, err } = await hoga('order', ...verb, ...connection());
      expect(code).toBe(1);
      expect(err).toContain(`hoga: order nope is not in hoga's store (${dbFile})`);
      expect(err).not.toContain('unexpected error');
    }
  });

  it('names $HOGA_RISK_CONFIG when the risk configuration it names cannot be read (exit 2)', async () => {
    const missing = join(dirname(dbFile), 'no-such-risk.json');
    process.env.HOGA_RISK_CONFIG = missing;
    try {
      const { code, err } = await hoga(
        'order',
        'buy',
        '005930',
        '1',
        '--limit',
        '60000',
        '--check',
        ...connection(),
      );
      expect(code).toBe(2);
      // before: 'cannot read the risk configuration …: ENOENT: no such file or directory, open …'
      expect(err).toContain(
        `hoga: cannot read the risk configuration ${missing} (from $HOGA_RISK_CONFIG): no such file`,
      );
    } finally {
      delete process.env.HOGA_RISK_CONFIG;
    }
  });

  it('hoga risk refuses a database that does not exist instead of making an empty one (exit 2)', async () => {
    const typo = join(dirname(dbFile), 'typo', 'hoga.sqlite');
    for (const args of [['status'], ['reset'], ['set', 'HALTED', '--account']]) {
      const { code, err } = await hoga('risk', ...args, '--db', typo);
      expect(code).toBe(2);
      // before: 'risk: all ACTIVE' from a new, empty store made at the mistyped path
      expect(err).toContain(`hoga: no database at ${typo}`);
    }
    expect(existsSync(typo)).toBe(false);
  });

  it('exits 2 on a usage error', async () => {
    const { code, err } = await hoga('order', 'buy', '005930', '10', ...connection());
    expect(code).toBe(2);
    expect(err).toMatch(/--limit PRICE/);
  });

  it.each([
    ['Monday 10:00 KST (open)', '2026-11-23T10:00:00+09:00', 'accepted', 0],
    ['Sunday 10:00 KST (closed)', '2026-11-22T10:00:00+09:00', 'denied: order-hours-closed', 3],
  ])(
    "judges the hours on the simulator's clock without --sim-clock, as hoga run does: %s",
    async (_label, start, verdict, exitCode) => {
      // Before: without --sim-clock the machine's clock judged them, so a simulator started at
      // another time (hoga sim --start) was refused what it would take, or the other way round.
      const sim = await startSimulator({ port: 0, start, speed: 0, rateLimit: false });
      try {
        const { out, code } = await hoga(
          'order',
          'buy',
          '005930',
          '1',
          '--limit',
          '65000',
          '--check',
          ...simFlags(sim.url),
          '--db',
          join(t.dir, 'clock.sqlite'),
        );
        expect(out.split(':').slice(0, 2).join(':')).toBe(verdict);
        expect(code).toBe(exitCode);
      } finally {
        await sim.close();
      }
    },
  );
});
