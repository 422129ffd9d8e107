/**
 * What a strategy author is told when a call to the context is wrong, as `hoga backtest` in a child
 * process over the simulator's candles says it:
 * - a `timeInForce` on a market order is judged as on a limit one: `CLS` (the broker's for US limit
 *   orders only) is denied `invalid-request`, `GTC` (no such order) throws. Before, both were dropped
 *   and the order went out, and filled, as a DAY market order;
 * - `ctx.submit` without a symbol, or with no request at all, throws an error naming the call and the
 *   value. Before, a `TypeError: Cannot read properties of undefined (reading 'toUpperCase')`;
 * - a cancel the venue gets for an order it rejected meanwhile (in the same hook) is refused with
 *   the broker's `already-rejected`. Before, `already-filled`, for a rejected, canceled or expired
 *   order alike;
 * - a cancel or modify of an order denied in the same hook (by the runtime or the risk gate) is
 *   refused `order-closed`, as the docs say; before, `order-not-found: No order … is known`;
 * - `ctx.cash('krw')` is KRW's cash, and `ctx.cash('EUR')` throws. Before, both answered 0 (hoga runs
 *   a `.ts` file without checking its types);
 * - `ctx.universe` is read-only: a strategy pushing to its `symbols` changed the run's own list
 *   (the report's header said `on 005930,X`) and every other strategy's universe.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failureText, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

/** On its first bar, makes the call its config's `call` names. */
const MISUSE = `
import type { Bar, OrderEvent } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

const Config = z.object({ call: z.string() });

export default class Misuse extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
  private done = false;
  override onStart(): void {
    if (this.config.call === 'cash') {
      this.ctx.log.info('cash krw ' + this.ctx.cash('krw' as 'KRW').toFixed() + ' usd ' + this.ctx.cash('usd' as 'USD').toFixed());
      this.ctx.cash('EUR' as 'KRW');
    }
    if (this.config.call !== 'universe') return;
    try {
      (this.ctx.universe.symbols as string[]).push('X');
    } catch (error) {
      this.ctx.log.info('universe refused: ' + (error as Error).message);
    }
    this.ctx.log.info('universe ' + this.ctx.universe.symbols.join(','));
  }
  override onBar(bar: Bar): void {
    if (this.done) return;
    this.done = true;
    const s = bar.symbol;
    if (this.config.call === 'market-cls') this.ctx.submit({ symbol: s, side: 'BUY', quantity: 1, timeInForce: 'CLS' });
    if (this.config.call === 'market-gtc') this.ctx.submit({ symbol: s, side: 'BUY', quantity: 1, timeInForce: 'GTC' as 'DAY' });
    if (this.config.call === 'no-symbol') this.ctx.submit({ side: 'BUY', quantity: 1 } as never);
    if (this.config.call === 'no-request') this.ctx.submit(undefined as never);
    if (this.config.call === 'cancel-denied') {
      // a quantity of 0: denied invalid-request at once, before the venue
      const id = this.ctx.buy(s, 0, bar.close);
      this.ctx.cancel(id);
      // over the default risk limit of 30,000,000 KRW an order: denied by the risk gate
      const big = this.ctx.buy(s, 1000, bar.close);
      this.ctx.modify(big, { price: bar.close - 100 });
    }
    if (this.config.call === 'cancel-rejected') {
      // $0.50 of a US stock: the broker takes an amount order under $1, then rejects it, and so does
      // the venue, after this hook (its events are queued until then), when the risk module (which
      // denies it before it is sent, as it denies what the broker's rules refuse) is off
      const id = this.ctx.buyAmount(s, 0.5);
      this.ctx.cancel(id);
    }
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderDenied') this.ctx.log.info('denied ' + event.code + ': ' + event.reason);
    if (event.type === 'OrderRejected' || event.type === 'OrderCancelRejected' || event.type === 'OrderModifyRejected')
      this.ctx.log.info(event.type + ' ' + event.code);
  }
}
`;

const scratch = useCliSimulator('hoga-backtest-misuse-');
const db = join(scratch.dir, 'hoga.sqlite');
const strategy = join(scratch.dir, 'misuse.ts');
writeFileSync(strategy, MISUSE);
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/** Runs the strategy with `call` over the daily bars of three days of 005930 (or `symbol`). */
async function run(call: string, json = true, symbol = '005930', extra: readonly string[] = []) {
  const file = join(scratch.dir, `${call}.json`);
  writeFileSync(file, JSON.stringify({ call }));
  return hoga([
    strategy,
    ...['--symbols', symbol, '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-05'],
    ...['--config', file, ...(json ? ['--json'] : []), ...simFlags(scratch.sim.url), '--db', db],
    ...extra,
  ]);
}

/** `hoga backtest` through tsx compiles the CLI's sources in the child: seconds each on a busy machine. */
const TSX_CHILD = { timeout: 120_000 };

describe('hoga backtest: a wrong call to the context', TSX_CHILD, () => {
  it('denies a KR market order with timeInForce CLS (US limit orders only), as the broker would; it is not a DAY market order', async () => {
    const result = await run('market-cls');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as BacktestJson;
    expect(report.trades).toEqual([]);
    expect(result.stderr).toContain('denied invalid-request: CLS is only for US limit orders');
  });

  it('stops the run on a market order with timeInForce GTC, naming the value', async () => {
    const result = await run('market-gtc');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'strategy Misuse threw in onBar: order intent: expected DAY or CLS, found GTC',
    );
  });

  it('stops the run on ctx.submit without a symbol, or without a request, naming the call and the value', async () => {
    const noSymbol = await run('no-symbol');
    expect(noSymbol.code).toBe(1);
    expect(noSymbol.stderr).toContain(
      'strategy Misuse threw in onBar: order: symbol: expected a symbol (a non-empty string), found undefined',
    );
    expect(noSymbol.stderr).not.toContain('toUpperCase');
    const noRequest = await run('no-request');
    expect(noRequest.code).toBe(1);
    expect(noRequest.stderr).toContain(
      'strategy Misuse threw in onBar: submit: expected an order request ({symbol, side, quantity, price?} or {symbol, side, amount}), found undefined',
    );
  });

  it('answers a cancel of an order the venue rejected meanwhile with already-rejected (before: already-filled)', async () => {
    const riskOff = join(scratch.dir, 'risk-off.json');
    writeFileSync(riskOff, JSON.stringify({ enabled: false }));
    const result = await run('cancel-rejected', true, 'AAPL', ['--risk-config', riskOff]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('OrderRejected broker-rejected');
    expect(result.stderr).toContain('OrderCancelRejected already-rejected');
    expect(result.stderr).not.toContain('already-filled');
  });

  it('refuses a cancel or modify of an order denied in the same hook order-closed (before: order-not-found, No order … is known)', async () => {
    const result = await run('cancel-denied');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('denied invalid-request');
    expect(result.stderr).toContain('denied risk-max-order-value');
    expect(result.stderr).toContain('OrderCancelRejected order-closed');
    expect(result.stderr).toContain('OrderModifyRejected order-closed');
    expect(result.stderr).not.toContain('order-not-found');
  });

  it("takes ctx.cash('krw') for KRW, and stops the run on ctx.cash('EUR') (before: both 0)", async () => {
    const result = await run('cash');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cash krw 100000000 usd 100000');
    // (the run is --json: the failure is stderr's last line, as JSON)
    expect(failureText(result.stderr)).toContain(
      'strategy Misuse threw in onStart: cash: expected a currency, KRW or USD, found "EUR"',
    );
  });

  it("keeps the run's symbols when a strategy pushes to ctx.universe.symbols (frozen)", async () => {
    const result = await run('universe', false);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('universe refused: Cannot add property 1, object is not extensible');
    expect(result.stderr).toContain('universe 005930\n');
    expect(result.stdout).toContain('Misuse on 005930 1d, 2026-11-03 to 2026-11-05');
  });
});

describe("hoga backtest: a strategy class's statics", TSX_CHILD, () => {
  it('a configSchema that is not a zod schema, or a warmupBars that is not a whole number, exits 2 naming them', async () => {
    const fields = join(scratch.dir, 'fields.ts');
    // the fields without z.object: before, `unexpected error: schema.safeParse is not a function`
    writeFileSync(
      fields,
      "import { Strategy, z } from '@hoga/engine';\nexport default class Fields extends Strategy { static readonly configSchema = { quantity: z.number() }; }\n",
    );
    const warm = join(scratch.dir, 'warm.ts');
    // before: taken for no warm-up, unsaid
    writeFileSync(
      warm,
      "import { Strategy } from '@hoga/engine';\nexport default class Warm extends Strategy { static readonly warmupBars = '50'; }\n",
    );
    const cases: [string, string][] = [
      [
        fields,
        `strategy file ${fields}: Fields.configSchema is not a zod schema: declare it as z.object({…})`,
      ],
      [
        warm,
        `strategy file ${warm}: Warm.warmupBars: expected a whole number of bars (0 or more), found "50"`,
      ],
    ];
    for (const [file, message] of cases) {
      const result = await hoga([
        file,
        ...['--symbols', '005930', '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-05'],
        ...simFlags(scratch.sim.url),
        ...['--db', db],
      ]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});
