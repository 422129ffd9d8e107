/**
 * `hoga order … --check --at <time>` judges the session hours of the instant it is asked about,
 * whatever its distance from the simulator's day: real `hoga` processes against a simulator over
 * HTTP started on Monday 2026-11-23 10:00 KST, whose calendar without a date knows Friday 11-20,
 * Monday 11-23 and Tuesday 11-24 (KR) only. Before, the risk module read only that window, so every
 * other date was judged closed (`order-hours-closed`), the audit's Thursday 11-19 and Wednesday
 * 11-25 among them.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let home: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00+09:00', speed: 0, rateLimit: false });
  home = tempHome();
});
afterAll(async () => {
  await sim?.close();
  rmSync(home, { recursive: true, force: true });
});

/**
 * `hoga order buy <symbol> 1 --limit <price> --check --json --at <at>` against the simulator
 * (`--market` for the price `market`, `--amount <usd>` for the price `$<usd>`).
 */
async function checkAt(symbol: string, price: string, at: string) {
  const before = sim.counters().requestsByGroup.MARKET_INFO ?? 0;
  const kind =
    price === 'market'
      ? ['--market', '1']
      : price.startsWith('$')
        ? ['--amount', price.slice(1)]
        : ['--limit', price, '1'];
  const run = await hoga(
    [
      ...['order', 'buy', symbol, ...kind, '--check', '--json', '--at', at],
      ...simFlags(sim.url),
      ...['--db', join(home, 'hoga.sqlite')],
    ],
    { env: { HOME: home, HOGA_TOKEN_FILE: join(home, 'tokens.json') } },
  );
  const answer = JSON.parse(run.out || '{}') as { verdict?: string; code?: string; message?: string };
  return { ...run, answer, marketInfoReads: (sim.counters().requestsByGroup.MARKET_INFO ?? 0) - before };
}

describe('hoga order --check --at judges the hours of the instant asked about', () => {
  it.each([
    ['Thursday 11-19, before the window (audit)', '2026-11-19T10:00:00+09:00'],
    ["Friday 11-20, the window's previous business day", '2026-11-20T10:00:00+09:00'],
    ["Tuesday 11-24, the window's next business day", '2026-11-24T10:00:00+09:00'],
    ['Wednesday 11-25, after the window (audit)', '2026-11-25T10:00:00+09:00'],
    ['Thursday 11-26 09:30, after the window (audit)', '2026-11-26T09:30:00+09:00'],
    ['Tuesday 11-03, three weeks before', '2026-11-03T10:00:00+09:00'],
    ['Wednesday 2027-05-12, months after', '2027-05-12T10:00:00+09:00'],
  ])('KR, open: %s is accepted', async (_label, at) => {
    const { answer, code, err, marketInfoReads } = await checkAt('005930', '60000', at);
    expect([answer.verdict, answer.code, code], err).toEqual(['accepted', undefined, 0]);
    // the KR and US calendars of that date and the exchange rate: as many reads as a check of today
    expect(marketInfoReads).toBe(3);
  });

  it.each([
    ['Saturday 11-28', '2026-11-28T10:00:00+09:00'],
    ['Sunday 11-08, before the window', '2026-11-08T10:00:00+09:00'],
    ['Christmas 2026-12-25 (KRX holiday)', '2026-12-25T10:00:00+09:00'],
    ["Buddha's Birthday 2027-05-13 (KRX holiday)", '2027-05-13T10:00:00+09:00'],
    ['Wednesday 11-25 at 21:00, after the after-market', '2026-11-25T21:00:00+09:00'],
  ])('KR, closed: %s is denied order-hours-closed', async (_label, at) => {
    const { answer, code, err } = await checkAt('005930', '60000', at);
    expect([answer.verdict, answer.code, code], err).toEqual(['denied', 'order-hours-closed', 3]);
  });

  it.each([
    ['Wednesday 12-02 09:40 New York, regular session', '2026-12-02T23:40:00+09:00', 'accepted', undefined],
    [
      'Thanksgiving 11-26 09:40 New York (NYSE holiday)',
      '2026-11-26T23:40:00+09:00',
      'denied',
      'order-hours-closed',
    ],
    [
      "Friday 11-27 17:30 New York, after the early close's after-market",
      '2026-11-28T07:30:00+09:00',
      'denied',
      'order-hours-closed',
    ],
    ['Saturday 12-05 09:40 New York', '2026-12-05T23:40:00+09:00', 'denied', 'order-hours-closed'],
  ])('US: %s', async (_label, at, verdict, denial) => {
    const { answer, err } = await checkAt('AAPL', '200', at);
    expect([answer.verdict, answer.code], err).toEqual([verdict, denial]);
  });

  it.each([
    [
      'KR on Christmas 2026-12-25',
      '005930',
      '60000',
      '2026-12-25T10:00:00+09:00',
      '2026-12-28 08:00 KST (Mon)',
    ],
    [
      'US on Saturday 12-05',
      'AAPL',
      '200',
      '2026-12-05T23:40:00+09:00',
      '2026-12-07 10:00 KST (Mon) = 2026-12-06 20:00 New York (Sun)',
    ],
  ])('says in the denial when orders are taken again (%s)', async (_label, symbol, price, at, next) => {
    const { answer, err } = await checkAt(symbol, price, at);
    expect(answer.code, err).toBe('order-hours-closed');
    expect(answer.message).toContain(`they are taken again from ${next}`);
  });

  it.each([
    ['KR at 08:30 KST (pre-market)', '005930', '2026-11-25T08:30:00+09:00', '2026-11-25 09:00 KST (Wed)'],
    [
      'US at 06:00 New York (pre-market)',
      'AAPL',
      '2026-12-02T20:00:00+09:00',
      '2026-12-02 23:30 KST (Wed) = 2026-12-02 09:30 New York (Wed)',
    ],
  ])(
    'says when the regular session opens in the denial of a MARKET order (%s)',
    async (_label, symbol, at, opens) => {
      const { answer, err } = await checkAt(symbol, 'market', at);
      expect(answer.code, err).toBe('order-type-not-allowed');
      expect(answer.message).toContain(`the regular session opens at ${opens}`);
    },
  );

  it('says when the next US regular session opens in the denial of an amount order in the pre-market', async () => {
    // 06:00 New York
    const { answer, err } = await checkAt('AAPL', '$100', '2026-12-02T20:00:00+09:00');
    expect(answer.code, err).toBe('amount-order-outside-regular-hours');
    expect(answer.message).toContain(
      'the next regular session opens at 2026-12-02 23:30 KST (Wed) = 2026-12-02 09:30 New York (Wed)',
    );
  });

  it('says the broker has no calendar for a date outside its range, instead of order-hours-closed', async () => {
    const { answer, code, err } = await checkAt('005930', '60000', '2030-01-02T10:00:00+09:00');
    expect([answer.verdict, answer.code, code], err).toEqual(['denied', 'risk-market-data-missing', 3]);
    expect(answer.message).toMatch(/KR calendar .*2030-01-02.*unsupported-date/);
  });
});
