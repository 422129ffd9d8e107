import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { backtestOrderIdPrefix, HogaDatabase, LATEST_SCHEMA_VERSION, RunRepository } from '@hoga/store';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDbCommands } from '../db.js';
import { withFailure } from './db-io.js';

const T0 = Date.parse('2026-11-23T09:00:00+09:00');
let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-cli-db-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `hoga db ...args` in-process; returns what it printed and the exit code it set. */
async function hoga(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const result = { out: '', err: '', code: 0 };
  const program = new Command('hoga').exitOverride().configureOutput({ writeErr: () => undefined });
  registerDbCommands(
    program,
    withFailure({
      out: (t) => {
        result.out += t;
      },
      err: (t) => {
        result.err += t;
      },
      fail: (c) => {
        result.code = c;
      },
    }),
  );
  await program.parseAsync(['node', 'hoga', 'db', ...args]);
  return result;
}

function seed(): void {
  const db = HogaDatabase.open(file);
  const base = {
    strategyId: 'sma',
    mode: 'live' as const,
    market: 'KR' as const,
    currency: 'KRW' as const,
    side: 'BUY' as const,
    orderType: 'LIMIT' as const,
    timeInForce: 'DAY' as const,
    amount: null,
  };
  const a = db.orders.recordIntent({
    ...base,
    clientOrderId: 'ord-a',
    symbol: '005930',
    price: new Decimal('72100'),
    quantity: new Decimal('10'),
    createdAt: T0,
  });
  db.orders.recordIntent({
    ...base,
    clientOrderId: 'ord-b',
    symbol: '000660',
    price: new Decimal('180500'),
    quantity: new Decimal('1'),
    createdAt: T0 + 86_400_000,
  });
  db.orders.linkBrokerOrderId('ord-a', 'B-1', 'create', T0);
  db.orders.linkBrokerOrderId('ord-a', 'B-2', 'modify', T0 + 1);
  db.orders.updateState('ord-a', { state: 'FILLED', updatedAt: T0 + 2, filledQuantity: new Decimal('10') });
  db.fills.record({
    orderId: a.id,
    brokerOrderId: 'B-2',
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal('10'),
    price: new Decimal('72100'),
    commission: new Decimal('108.15'),
    commissionCurrency: 'KRW',
    filledAt: T0 + 2,
    cumulativeQuantity: new Decimal('10'),
  });
  db.close();
}

describe('registerDbCommands', () => {
  describe('db info', () => {
    it('prints file, version, journal mode, tables with row counts and integrity as JSON', async () => {
      seed();
      const { out, code } = await hoga('info', '--json', '--db', file);
      expect(code).toBe(0);
      const info = JSON.parse(out) as Record<string, unknown> & { tables: { name: string; rows: number }[] };
      expect(info).toMatchObject({
        file,
        schemaVersion: LATEST_SCHEMA_VERSION,
        journalMode: 'wal',
        integrity: ['ok'],
      });
      expect(info.tables).toContainEqual({ name: 'orders', rows: 2 });
      expect(info.tables).toContainEqual({ name: 'fills', rows: 1 });
      expect(info.tables).toContainEqual({ name: 'order_broker_ids', rows: 2 });
    });

    it('prints a readable summary without --json', async () => {
      seed();
      const { out } = await hoga('info', '--db', file);
      expect(out).toMatch(/schema version\s+\d+ \(latest\)/);
      expect(out).toMatch(/journal mode\s+wal/);
      expect(out).toMatch(/integrity\s+ok/);
      expect(out).toMatch(/orders\s+2/);
    });

    it('takes the file from HOGA_DB when --db is absent', async () => {
      seed();
      const saved = process.env.HOGA_DB;
      process.env.HOGA_DB = file;
      try {
        expect(JSON.parse((await hoga('info', '--json')).out)).toMatchObject({ file });
      } finally {
        if (saved === undefined) delete process.env.HOGA_DB;
        else process.env.HOGA_DB = saved;
      }
    });

    it.each([
      // A missing file is bad configuration (exit 2, issue 13 item 7); a foreign file a failure.
      ['a missing file', () => undefined, /no database at/, 2],
      ['a foreign file', () => writeFileSync(file, 'not a database at all'), /is not a hoga database/, 1],
    ])(
      'exits 1 or 2 with a message naming the file for %s, creating nothing',
      async (_, make, message, exit) => {
        make();
        const { out, err, code } = await hoga('info', '--db', file);
        expect(code).toBe(exit);
        expect(out).toBe('');
        expect(err).toMatch(message);
        expect(err).toContain(file);
        expect(existsSync(`${file}-wal`)).toBe(false);
      },
    );
  });

  describe('db migrate', () => {
    it('creates a missing database at the latest version, then reports it up to date', async () => {
      expect((await hoga('migrate', '--db', file)).out).toBe(
        `${file}: schema version 0 → ${LATEST_SCHEMA_VERSION}\n`,
      );
      expect((await hoga('migrate', '--db', file)).out).toBe(
        `${file}: schema version ${LATEST_SCHEMA_VERSION}, up to date\n`,
      );
    });
  });

  describe('db orders', () => {
    it('lists orders as JSON with decimals as strings and the broker id lineage', async () => {
      seed();
      const orders = JSON.parse((await hoga('orders', '--json', '--db', file)).out) as Record<
        string,
        unknown
      >[];
      expect(orders.map((o) => o.clientOrderId)).toEqual(['ord-a', 'ord-b']);
      expect(orders[0]).toMatchObject({
        brokerOrderId: 'B-2',
        price: '72100',
        filledQuantity: '10',
        state: 'FILLED',
        createdAt: '2026-11-23T09:00:00.000+09:00',
        brokerOrderIds: [
          { brokerOrderId: 'B-1', kind: 'create' },
          { brokerOrderId: 'B-2', kind: 'modify' },
        ],
      });
    });

    it.each([
      [['--state', 'FILLED'], ['ord-a']],
      [
        ['--state', 'initialized,filled'],
        ['ord-a', 'ord-b'],
      ],
      [['--symbol', '000660'], ['ord-b']],
      [['--date', '2026-11-24'], ['ord-b']],
      [['--strategy', 'other'], []],
      [['--limit', '1'], ['ord-b']],
    ])('filters with %j', async (filter, expected) => {
      seed();
      const orders = JSON.parse((await hoga('orders', '--json', '--db', file, ...filter)).out) as {
        clientOrderId: string;
      }[];
      expect(orders.map((o) => o.clientOrderId)).toEqual(expected);
    });

    // Before: --limit (1,000 by default) kept the oldest orders, so on a store of a few weeks'
    // trading today's orders were left out, and nothing said the list was cut.
    it('keeps the newest orders under --limit, oldest first, and says on stderr that it cut the list', async () => {
      seed();
      const { out, err } = await hoga('orders', '--db', file, '--limit', '1');
      expect(out).toMatch(/ord-b/);
      expect(out).not.toMatch(/ord-a/);
      expect(err).toBe('hoga: the newest 1 order shown; --limit to see more, --date or --symbol to narrow\n');
      expect((await hoga('orders', '--db', file, '--limit', '2')).err).toBe('');
    });

    it('prints a table with one line per order', async () => {
      seed();
      const lines = (await hoga('orders', '--db', file)).out.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^created\s+clientOrderId\s+brokerOrderId/);
      expect(lines[1]).toMatch(
        /^2026-11-23 09:00:00\s+ord-a\s+B-2\s+sma\s+live\s+005930\s+BUY\s+LIMIT\s+72100\s+10\s+10\s+-\s+FILLED$/,
      );
      expect(lines).toHaveLength(3);
    });

    it('takes a symbol in any case, as hoga backtest does (before: --symbol aapl found none of AAPL)', async () => {
      seed();
      const db = HogaDatabase.open(file);
      db.orders.recordIntent({
        clientOrderId: 'ord-us',
        strategyId: 'sma',
        mode: 'live',
        market: 'US',
        currency: 'USD',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'DAY',
        amount: null,
        symbol: 'AAPL',
        price: new Decimal('226.02'),
        quantity: new Decimal('1'),
        createdAt: T0,
      });
      db.close();
      const orders = JSON.parse((await hoga('orders', '--json', '--db', file, '--symbol', 'aapl')).out) as {
        clientOrderId: string;
      }[];
      expect(orders.map((o) => o.clientOrderId)).toEqual(['ord-us']);
    });

    it('refuses a date that is not in the calendar as bad usage (before: exit 1 after opening the file)', async () => {
      seed();
      await expect(hoga('orders', '--db', file, '--date', '2026-13-07')).rejects.toThrow(
        /--date: expected a date like 2026-11-23, found "2026-13-07"/,
      );
      await expect(hoga('fills', '--db', file, '--date', '2026-02-30')).rejects.toThrow(/--date: expected/);
    });

    it('prints CSV with --csv, as docs/cli.md says of every tabular command (before: unknown option)', async () => {
      seed();
      const lines = (await hoga('orders', '--csv', '--db', file)).out.trimEnd().split('\n');
      expect(lines[0]).toBe(
        'created,clientOrderId,brokerOrderId,strategy,mode,symbol,side,type,price,qty,filled,avg,state',
      );
      expect(lines[1]).toBe('2026-11-23 09:00:00,ord-a,B-2,sma,live,005930,BUY,LIMIT,72100,10,10,-,FILLED');
      expect(lines).toHaveLength(3);
      const fills = (await hoga('fills', '--csv', '--db', file)).out.trimEnd().split('\n');
      expect(fills[1]).toBe('2026-11-23 09:00:00,ord-a,B-2,sma,005930,BUY,10,72100,108.15 KRW,-,10');
    });

    it('rejects an unknown state with the allowed values', async () => {
      seed();
      await expect(hoga('orders', '--db', file, '--state', 'DONE')).rejects.toThrow(
        /--state: expected one or more of/,
      );
    });
  });

  describe('db orders --mode backtest', () => {
    it("lists a run's orders oldest first, and --limit keeps the oldest (before: in the order they ended)", async () => {
      const run = '0123abcd-4567-89ef-0000-000000000000';
      const prefix = backtestOrderIdPrefix(run);
      const db = HogaDatabase.open(file);
      // as a run journals them: each order when it ends, so a limit buy canceled three bars on is
      // written after the orders placed meanwhile
      const summary = (n: number, created: number, ended: number, last: string) => ({
        type: 'OrderSummary',
        tsEvent: T0 + ended * 60_000,
        tsInit: T0 + ended * 60_000,
        mode: 'backtest' as const,
        strategyId: 'rsi',
        clientOrderId: `${prefix}-${n}`,
        payload: {
          clientOrderId: `${prefix}-${n}`,
          strategyId: 'rsi',
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          price: '68300',
          quantity: '10',
          amount: null,
          last,
          events: [
            ['OrderSubmitted', T0 + created * 60_000],
            [last, T0 + ended * 60_000],
          ],
          fills: [],
          reason: null,
        },
      });
      db.journal.appendMany([
        summary(2, 2, 3, 'OrderRejected'),
        summary(1, 1, 4, 'OrderCanceled'),
        summary(4, 5, 5, 'OrderRejected'),
        summary(3, 4, 7, 'OrderCanceled'),
      ]);
      db.close();
      const ids = async (...more: string[]) =>
        (
          JSON.parse(
            (await hoga('orders', '--mode', 'backtest', '--run', run, '--json', '--db', file, ...more)).out,
          ) as { clientOrderId: string }[]
        ).map((o) => o.clientOrderId.slice(prefix.length + 1));
      expect(await ids()).toEqual(['1', '2', '3', '4']);
      expect(await ids('--limit', '2')).toEqual(['1', '2']);
    });
  });

  describe('db runs', () => {
    it('lists runs as CSV with --csv, and refuses --csv for one run', async () => {
      seed();
      expect((await hoga('runs', '--csv', '--db', file)).out).toBe(
        'started,run,kind,strategy,status,return,trades\n',
      );
      const one = await hoga('runs', '--csv', '--db', file, '--id', 'x');
      expect([one.code, one.err]).toEqual([2, expect.stringContaining('--csv lists runs')]);
    });

    it("lists a run's return with the digits its report shows: a loss too small for them is 0.00 %, not -0.00 % (before: -0.00 % in the list, 0.00 % in the report)", async () => {
      const db = HogaDatabase.open(file);
      const runs = new RunRepository(db.connection);
      const stored = (runId: string, totalReturn: number) => {
        runs.start({
          runId,
          kind: 'backtest',
          strategyPath: null,
          strategyName: 'S',
          params: {},
          startedAt: T0,
        });
        runs.finish(runId, { status: 'completed', endedAt: T0 + 1, stats: { totalReturn, trades: 5 } });
      };
      // 239,995,034 / 240,000,000 − 1 = −0.0000206917 (−0.002 %): a minute run of hoga backtest
      stored('tiny-loss', -0.000020691666666627917);
      stored('loss', -0.0123);
      runs.start({
        runId: 'open',
        kind: 'backtest',
        strategyPath: null,
        strategyName: 'S',
        params: {},
        startedAt: T0,
      });
      db.close();
      const list = (await hoga('runs', '--db', file)).out;
      expect(list).toMatch(/tiny-loss +backtest +S +completed +0\.00 % +5\n/);
      expect(list).toMatch(/ loss +backtest +S +completed +-1\.23 % +5\n/);
      // CSV is for programs: the return as the fraction stored, unrounded and with no unit
      // (before, `0.00 %` and `-1.23 %`, text a spreadsheet or pandas reads as a string)
      const csv = (await hoga('runs', '--csv', '--db', file)).out;
      expect(csv).toContain(',tiny-loss,backtest,S,completed,-0.000020691666666627917,5\n');
      expect(csv).toContain(',loss,backtest,S,completed,-0.0123,5\n');
      // a run with no statistics yet: empty cells, not the table's `-`
      expect(csv).toMatch(/,open,backtest,S,[a-z]+,,\n/);
      expect((await hoga('runs', '--db', file, '--id', 'tiny-loss')).out).toMatch(/total return +0\.00 %\n/);
    });

    it('names --kind, not --mode, when the kind is unknown', async () => {
      seed();
      const failure = hoga('runs', '--db', file, '--kind', 'foo');
      await expect(failure).rejects.toThrow(/\. --kind: expected one of backtest, paper, live, found "foo"$/);
      await expect(failure).rejects.not.toThrow(/--mode/);
    });
  });

  describe('db positions', () => {
    it('refuses a mode without positions of its own (before: --mode foo listed the live positions)', async () => {
      seed();
      await expect(hoga('positions', '--db', file, '--mode', 'backtest')).rejects.toThrow(
        /--mode: expected live or paper, found "backtest"/,
      );
    });
  });

  describe('db fills', () => {
    it('lists fills as JSON with their order and decimals as strings', async () => {
      seed();
      const fills = JSON.parse(
        (await hoga('fills', '--json', '--db', file, '--order', 'ord-a')).out,
      ) as unknown[];
      expect(fills).toEqual([
        expect.objectContaining({
          clientOrderId: 'ord-a',
          brokerOrderId: 'B-2',
          quantity: '10',
          price: '72100',
          commission: '108.15',
          commissionCurrency: 'KRW',
          cumulativeQuantity: '10',
          filledAt: '2026-11-23T09:00:00.002+09:00',
        }),
      ]);
      expect(JSON.parse((await hoga('fills', '--json', '--db', file, '--symbol', '000660')).out)).toEqual([]);
    });

    it("--mode lists only the fills of that mode's orders (a store a live and a paper run share)", async () => {
      // before: db fills had no --mode, and hoga db positions --mode paper could not be checked
      // against the paper run's fills when the store held live ones too
      seed();
      const db = HogaDatabase.open(file);
      const p = db.orders.recordIntent({
        strategyId: 'sma',
        mode: 'paper',
        market: 'KR',
        currency: 'KRW',
        side: 'BUY',
        orderType: 'MARKET',
        timeInForce: 'DAY',
        amount: null,
        price: null,
        clientOrderId: 'ord-p',
        symbol: '000660',
        quantity: new Decimal('2'),
        createdAt: T0 + 5,
      });
      db.fills.record({
        orderId: p.id,
        brokerOrderId: 'paper-x-1',
        symbol: '000660',
        side: 'BUY',
        quantity: new Decimal('2'),
        price: new Decimal('180500'),
        commission: new Decimal('54'),
        commissionCurrency: 'KRW',
        filledAt: T0 + 6,
        cumulativeQuantity: new Decimal('2'),
      });
      db.close();
      const ids = async (...flags: string[]) =>
        (
          JSON.parse((await hoga('fills', '--json', '--db', file, ...flags)).out) as {
            clientOrderId: string;
          }[]
        ).map((f) => f.clientOrderId);
      expect(await ids()).toEqual(['ord-a', 'ord-p']);
      expect(await ids('--mode', 'paper')).toEqual(['ord-p']);
      expect(await ids('--mode', 'live')).toEqual(['ord-a']);
      // a backtest stores no broker fills (its trades are its run's): said, not listed as none
      const backtest = await hoga('fills', '--json', '--db', file, '--mode', 'backtest');
      expect([backtest.code, backtest.out, backtest.err]).toEqual([
        2,
        '',
        expect.stringContaining('hoga db runs --id'),
      ]);
      await expect(hoga('fills', '--db', file, '--mode', 'demo')).rejects.toThrow(/--mode: expected one of/);
    });

    it('keeps the newest fills under --limit, oldest first, and says on stderr that it cut the list', async () => {
      seed();
      const db = HogaDatabase.open(file);
      const b = db.orders.get('ord-b');
      db.fills.record({
        orderId: b?.id as number,
        brokerOrderId: 'B-3',
        symbol: '000660',
        side: 'BUY',
        quantity: new Decimal('1'),
        price: new Decimal('180500'),
        commission: new Decimal('27.07'),
        commissionCurrency: 'KRW',
        filledAt: T0 + 86_400_000,
        cumulativeQuantity: new Decimal('1'),
      });
      db.close();
      const { out, err } = await hoga('fills', '--json', '--db', file, '--limit', '1');
      expect((JSON.parse(out) as { clientOrderId: string }[]).map((f) => f.clientOrderId)).toEqual(['ord-b']);
      expect(err).toBe('hoga: the newest 1 fill shown; --limit to see more, --date or --symbol to narrow\n');
      const both = await hoga('fills', '--json', '--db', file, '--limit', '2');
      expect((JSON.parse(both.out) as { clientOrderId: string }[]).map((f) => f.clientOrderId)).toEqual([
        'ord-a',
        'ord-b',
      ]);
      expect(both.err).toBe('');
    });

    it('shows each fill with its commission and tax in the table', async () => {
      seed();
      const db = HogaDatabase.open(file);
      const sell = db.orders.recordIntent({
        strategyId: 'sma',
        mode: 'live',
        market: 'KR',
        currency: 'KRW',
        side: 'SELL',
        orderType: 'LIMIT',
        timeInForce: 'DAY',
        amount: null,
        clientOrderId: 'ord-s',
        symbol: '005930',
        price: new Decimal('73000'),
        quantity: new Decimal('10'),
        createdAt: T0 + 3,
      });
      db.fills.record({
        orderId: sell.id,
        brokerOrderId: 'B-3',
        symbol: '005930',
        side: 'SELL',
        quantity: new Decimal('10'),
        price: new Decimal('73000'),
        commission: new Decimal('109'),
        commissionCurrency: 'KRW',
        tax: new Decimal('1095'),
        filledAt: T0 + 4,
        cumulativeQuantity: new Decimal('10'),
      });
      db.close();
      const lines = (await hoga('fills', '--db', file)).out.trim().split('\n');
      // before: no tax column (the 1,095 won of tax the sell paid was in --json only)
      expect(lines[0]).toMatch(/\bcommission\s+tax\b/);
      expect(lines.find((l) => l.includes('B-3'))).toMatch(/109 KRW\s+1095 KRW/);
      expect(lines.find((l) => l.includes('B-2'))).toMatch(/108\.15 KRW\s+- /);
    });

    it('exits 1 naming an unknown order', async () => {
      seed();
      const { err, code } = await hoga('fills', '--db', file, '--order', 'nope');
      expect(code).toBe(1);
      expect(err).toContain('nope');
    });
  });
});
