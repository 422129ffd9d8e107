/**
 * A backtest's books and statistics recomputed from the outside, as a quant checks them: `hoga
 * backtest --json` of a plan of trades in a KR stock, a US stock and a sub-dollar US stock (bought in
 * lots at different prices, an amount buy and a fractional market sell, sold in part and in whole),
 * valued with no `--usd-krw`, so at the simulator's USD/KRW history. From the printed trades alone,
 * the simulator's candles and its exchange-rate endpoint (over HTTP, not through hoga), this file
 * works out each point of the equity curve, the drawdown and the Sharpe ratio, and the books the
 * strategy logs (cash, positions and their average prices, realized PnL), and compares them with
 * what the engine printed and stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const PLAN = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'books-a-plan.ts');
const FROM = '2025-01-02';
const TO = '2025-03-31';
const CASH = { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) };
/** Per symbol, the bar (1-based) whose close places the order, and what it orders. */
const STEPS = {
  '005930': { 1: 3, 3: 4, 5: -2, 7: 5, 9: 'all', 12: 6 },
  AAPL: { 1: 7, 3: 3, 6: -4, 8: 'amount:1000', 10: 'sell:2.123456', 14: 'all', 16: 5, 30: 'amount:777.77' },
  ZOM: { 2: 1000, 4: 333, 6: -500, 9: 'all', 11: 777 },
};

let sim: SimulatorHandle;
let dir: string;
let run: BacktestJson;
let stderr: string;

beforeAll(async () => {
  // no rate limit: the run reads one rate per trading day, and this file as many again
  sim = await startSimulator({ port: 0, rateLimit: false });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-books-fx-'));
  const config = join(dir, 'plan.json');
  writeFileSync(config, JSON.stringify({ plan: STEPS }));
  const result = await hogaBacktest([
    PLAN,
    ...['--config', config, '--symbols', '005930,AAPL,ZOM', '--interval', '1d', '--from', FROM, '--to', TO],
    ...['--json', ...simFlags(sim.url), '--db', join(dir, 'hoga.sqlite')],
  ]);
  expect(result.code, result.stderr).toBe(0);
  run = JSON.parse(result.stdout) as BacktestJson;
  stderr = result.stderr;
}, 120_000);
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

let token: string | undefined;

/** A GET of the simulator's API (a token of its own, issued again once a hoga run replaced it). */
async function api<T>(path: string, query: Record<string, string>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (token === undefined) {
      const form = { grant_type: 'client_credentials', client_id: 'sim-client', client_secret: 'sim-secret' };
      const issued = await fetch(`${sim.url}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams(form),
      });
      token = ((await issued.json()) as { access_token: string }).access_token;
    }
    const response = await fetch(`${sim.url}${path}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { result: T };
    if (response.status === 401 && attempt === 0) {
      token = undefined;
      continue;
    }
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.result;
  }
}

const currencyOf = (symbol: string) => (/^\d{6}$/.test(symbol) ? 'KRW' : 'USD');
/** A traded amount as the cash moves by it: half up to the won or the cent. */
const amountOf = (symbol: string, quantity: Decimal, price: Decimal) =>
  quantity.times(price).toDecimalPlaces(currencyOf(symbol) === 'KRW' ? 0 : 2, Decimal.ROUND_HALF_UP);

/** A symbol's daily closes as [close time, close]: KR at 15:30 KST, US at 16:00 New York of the date. */
async function closes(symbol: string): Promise<[number, Decimal][]> {
  const page = await api<{ candles: { timestamp: string; closePrice: string }[] }>('/api/v1/candles', {
    symbol,
    interval: '1d',
    count: '200',
    before: '2025-04-02T00:00:00+09:00',
  });
  return page.candles
    .map((c): [number, Decimal] => {
      const date = c.timestamp.slice(0, 10);
      const close =
        currencyOf(symbol) === 'KRW'
          ? DateTime.fromISO(`${date}T15:30`, { zone: 'Asia/Seoul' })
          : DateTime.fromISO(`${date}T16:00`, { zone: 'America/New_York' });
      return [close.toMillis(), new Decimal(c.closePrice)];
    })
    .sort((a, b) => a[0] - b[0]);
}

/** The simulator's USD/KRW rate valid at an instant. */
async function rateAt(time: string): Promise<Decimal> {
  const answer = await api<{ rate: string }>('/api/v1/exchange-rate', {
    baseCurrency: 'USD',
    quoteCurrency: 'KRW',
    dateTime: time,
  });
  return new Decimal(answer.rate);
}

/**
 * The equity in KRW at each point's time of a run: cash and shares from its trades up to it, at
 * the last closes and that time's rate.
 */
async function recomputedCurve(
  printed: BacktestJson = run,
): Promise<{ equity: Decimal[]; rates: Decimal[] }> {
  const marks = new Map<string, [number, Decimal][]>();
  for (const symbol of new Set(printed.trades.map((t) => t.symbol))) marks.set(symbol, await closes(symbol));
  const equity: Decimal[] = [];
  const rates: Decimal[] = [];
  for (const point of printed.equity) {
    const t = Date.parse(point.time);
    const cash = { ...CASH };
    const held = new Map<string, Decimal>();
    for (const trade of printed.trades.filter((x) => Date.parse(x.time) <= t)) {
      const quantity = new Decimal(trade.quantity);
      const amount = amountOf(trade.symbol, quantity, new Decimal(trade.price));
      const currency = currencyOf(trade.symbol);
      const sign = trade.side === 'BUY' ? -1 : 1;
      cash[currency] = cash[currency].plus(amount.times(sign)).minus(trade.commission).minus(trade.tax);
      held.set(trade.symbol, (held.get(trade.symbol) ?? new Decimal(0)).minus(quantity.times(sign)));
    }
    const value = { KRW: cash.KRW, USD: cash.USD };
    for (const [symbol, quantity] of held) {
      const last = (marks.get(symbol) ?? []).filter(([close]) => close <= t).pop();
      if (last === undefined) throw new Error(`no close of ${symbol} by ${point.time}`);
      value[currencyOf(symbol)] = value[currencyOf(symbol)].plus(quantity.times(last[1]));
    }
    const rate = await rateAt(point.time);
    rates.push(rate);
    equity.push(value.KRW.plus(value.USD.times(rate)));
  }
  return { equity, rates };
}

describe('hoga backtest of KR and US stocks valued at the broker USD/KRW history, recomputed from the outside', () => {
  it("values each day's point of the equity curve at the rate valid at its time, and its drawdown and Sharpe ratio are that curve's (before: the month start's rate all month)", async () => {
    const { equity, rates } = await recomputedCurve();
    // the rate moves from day to day within a month (1,396.43 on 2025-01-04 06:00 KST, 1,419.78
    // three days later): a month start's rate held all month was up to 3 million won off this
    // account's 100,000 dollars
    const january = rates.slice(1, 20).map((r) => r.toNumber());
    expect(new Set(january).size).toBeGreaterThan(15);
    expect(run.equity).toHaveLength(64);
    for (const [i, point] of run.equity.entries()) {
      const mine = equity[i] as Decimal;
      expect(
        Math.abs(Number(point.equity) - mine.toNumber()),
        `${point.time}: ${mine.toFixed(2)}`,
      ).toBeLessThanOrEqual(1);
    }
    // the statistics of that curve: the largest fall from a running peak, and mean ÷ sample
    // standard deviation of the daily returns × √252
    const values = equity.map((e) => e.toNumber());
    let peak = Number.NEGATIVE_INFINITY;
    let drawdown = 0;
    for (const v of values) {
      peak = Math.max(peak, v);
      drawdown = Math.max(drawdown, (peak - v) / peak);
    }
    const returns = values.slice(1).map((v, i) => v / (values[i] as number) - 1);
    const mean = returns.reduce((a, r) => a + r, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
    const s = run.stats as Record<string, string>;
    expect(Number(s.maxDrawdown)).toBeCloseTo(drawdown, 9);
    expect(Number(s.sharpe)).toBeCloseTo((mean / sd) * Math.sqrt(252), 6);
    // (the month start's rate all month made these 0.0035 and 1.48)
    expect(Number(s.maxDrawdown)).toBeCloseTo(0.015948, 5);
    expect(Number(s.sharpe)).toBeCloseTo(0.7264, 3);
    const years =
      (Date.parse(run.equity[63]?.time ?? '') - Date.parse(run.equity[0]?.time ?? '')) /
      (365.25 * 86_400_000);
    const growth = (values[63] as number) / (values[0] as number);
    expect(Number(s.totalReturn)).toBeCloseTo(growth - 1, 9);
    expect(Number(s.cagr)).toBeCloseTo(growth ** (1 / years) - 1, 9);

    const stored = await hogaBin([
      'db',
      'runs',
      '--db',
      join(dir, 'hoga.sqlite'),
      '--id',
      run.runId,
      '--json',
    ]);
    expect(stored.code, stored.err).toBe(0);
    const back = JSON.parse(stored.out) as BacktestJson;
    expect(back.equity).toEqual(run.equity);
    expect(back.stats).toEqual({ ...run.stats, failure: null });
  }, 60_000);

  it('books lots at different prices, an amount buy and a fractional sell as the broker does: average prices to 4 places, realized PnL what the cash moved by', () => {
    const books = [...stderr.matchAll(/books (\{.*\})$/gm)].map((m) => JSON.parse(m[1] as string));
    expect(books).toHaveLength(run.trades.length + 1);
    const after = (symbol: string, n: number) => {
      const i = run.trades.map((t, k) => (t.symbol === symbol ? k : -1)).filter((k) => k >= 0)[
        n - 1
      ] as number;
      return books[i].positions.find((p: { symbol: string }) => p.symbol === symbol);
    };
    expect(run.trades.filter((t) => t.symbol === '005930').map((t) => [t.side, t.quantity, t.price])).toEqual(
      [
        ['BUY', '3', '53600'],
        ['BUY', '4', '54200'],
        ['SELL', '2', '53800'],
        ['BUY', '5', '54800'],
        ['SELL', '10', '54100'],
        ['BUY', '6', '52900'],
      ],
    );
    // (160,800 + 216,800) / 7 = 53,942.857142… → 53,942.8571
    expect(after('005930', 2)).toMatchObject({ quantity: '7', averagePrice: '53942.8571' });
    // 107,600 − 2 × 53,942.8571; the average stays
    expect(after('005930', 3)).toMatchObject({
      quantity: '5',
      averagePrice: '53942.8571',
      realizedPnl: '-285.7142',
    });
    // (5 × 53,942.8571 + 274,000) / 10 = 54,371.42855 → 54,371.4286 (half up)
    expect(after('005930', 4)).toMatchObject({ quantity: '10', averagePrice: '54371.4286' });
    // the sell that closes realizes its 541,000 less what the 10 shares still cost: in all,
    // 648,600 of sells less 651,600 of buys, what the cash moved by (before charges)
    expect(
      books[run.trades.findIndex((t) => t.symbol === '005930' && t.quantity === '10')].realized.KRW,
    ).toBe('-3000');

    const aapl = run.trades.filter((t) => t.symbol === 'AAPL');
    // $1,000 at 182.52: 5.478851 shares (5.478851 × 182.52 = 999.9998… → $1,000.00)
    expect(aapl[3]).toMatchObject({ side: 'BUY', quantity: '5.478851', price: '182.52', commission: '1' });
    // (7 × 168.52 + 3 × 173.24) / 10 = 169.936; then (6 × 169.936 + 1,000.00) / 11.478851 = 175.942348…
    expect(after('AAPL', 2)).toMatchObject({ quantity: '10', averagePrice: '169.936' });
    expect(after('AAPL', 4)).toMatchObject({ quantity: '11.478851', averagePrice: '175.9423' });
    // a fractional market sell of 2.123456, then the rest, 9.355395, sold whole
    expect(aapl[4]).toMatchObject({ side: 'SELL', quantity: '2.123456' });
    expect(aapl[5]).toMatchObject({ side: 'SELL', quantity: '9.355395' });

    // at the stop, against the trades recomputed here
    const stop = books[books.length - 1];
    const cash = { ...CASH };
    const realized = { KRW: new Decimal(0), USD: new Decimal(0) };
    const lots = new Map<string, { quantity: Decimal; average: Decimal; cost: Decimal }>();
    for (const t of run.trades) {
      const c = currencyOf(t.symbol);
      const quantity = new Decimal(t.quantity);
      const amount = amountOf(t.symbol, quantity, new Decimal(t.price));
      const lot = lots.get(t.symbol) ?? {
        quantity: new Decimal(0),
        average: new Decimal(0),
        cost: new Decimal(0),
      };
      if (t.side === 'BUY') {
        cash[c] = cash[c].minus(amount);
        lot.average = lot.quantity
          .times(lot.average)
          .plus(amount)
          .dividedBy(lot.quantity.plus(quantity))
          .toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
        lot.quantity = lot.quantity.plus(quantity);
        lot.cost = lot.cost.plus(amount);
      } else {
        cash[c] = cash[c].plus(amount);
        const released = quantity.eq(lot.quantity) ? lot.cost : lot.average.times(quantity);
        realized[c] = realized[c].plus(amount.minus(released));
        lot.quantity = lot.quantity.minus(quantity);
        lot.cost = lot.cost.minus(released);
      }
      cash[c] = cash[c].minus(t.commission).minus(t.tax);
      lots.set(t.symbol, lot);
    }
    expect(stop.cash).toEqual({ KRW: cash.KRW.toFixed(), USD: cash.USD.toFixed() });
    expect(stop.cash).toEqual({ KRW: '99678387', USD: '98291.26' });
    expect(stop.realized).toEqual({ KRW: realized.KRW.toFixed(), USD: realized.USD.toFixed() });
    expect(stop.realized).toEqual({ KRW: '-3000', USD: '26.05' });
    expect(stop.positions).toEqual(
      [...lots]
        .filter(([, lot]) => !lot.quantity.isZero())
        .map(([symbol, lot]) =>
          expect.objectContaining({
            symbol,
            quantity: lot.quantity.toFixed(),
            averagePrice: lot.average.toFixed(),
          }),
        ),
    );
    // (5 × 176.81 + 777.77) / 9.851057; (6 bought at 52,900 after the sell of all); (777 at 0.0844)
    expect(
      stop.positions.map((p: { symbol: string; quantity: string; averagePrice: string }) => [
        p.symbol,
        p.quantity,
        p.averagePrice,
      ]),
    ).toEqual([
      ['005930', '6', '52900'],
      ['AAPL', '9.851057', '168.6946'],
      ['ZOM', '777', '0.0844'],
    ]);
    // the run's commissions and taxes are the trades'; the strategy's realized PnL its book's
    const sum = (field: 'commission' | 'tax', c: string) =>
      run.trades
        .filter((t) => currencyOf(t.symbol) === c)
        .reduce((a, t) => a.plus(t[field]), new Decimal(0))
        .toFixed();
    const s = run.stats as {
      commissions: Record<string, string>;
      taxes: Record<string, string>;
      byStrategy: { realizedPnl: Record<string, string> }[];
    };
    expect(s.commissions).toEqual({ KRW: sum('commission', 'KRW'), USD: sum('commission', 'USD') });
    expect(s.taxes).toEqual({ KRW: sum('tax', 'KRW'), USD: sum('tax', 'USD') });
    expect(s.byStrategy[0]?.realizedPnl).toEqual(stop.realized);
  });

  it("values the dollars of a KR run that trades a US stock it subscribed to in onStart at each day's rate (before: at the start's all run long)", async () => {
    const result = await hogaBacktest([
      join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'buys-a-subscribed-stock.ts'),
      ...['--symbols', '005930', '--interval', '1d', '--from', '2025-01-02', '--to', '2025-01-31'],
      ...['--json', ...simFlags(sim.url), '--db', join(dir, 'subscribed.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as BacktestJson;
    // 100 AAPL at the open after its first bar, held to the end
    expect(printed.trades.map((t) => [t.symbol, t.side, t.quantity, t.price])).toEqual([
      ['AAPL', 'BUY', '100', '168.52'],
    ]);
    const { equity } = await recomputedCurve(printed);
    for (const [i, point] of printed.equity.entries()) {
      const mine = equity[i] as Decimal;
      expect(
        Math.abs(Number(point.equity) - mine.toNumber()),
        `${point.time}: ${mine.toFixed(2)}`,
      ).toBeLessThanOrEqual(1);
    }
    // the end: 83,131.15 USD of cash (100,000 − 16,852 − 16.85 of commission) and 100 AAPL at
    // their last close, at the rate of its time
    const s = printed.stats as Record<string, string>;
    const values = equity.map((e) => e.toNumber());
    expect(Number(s.totalReturn)).toBeCloseTo(
      (values[values.length - 1] as number) / (values[0] as number) - 1,
      9,
    );
  }, 60_000);
});
