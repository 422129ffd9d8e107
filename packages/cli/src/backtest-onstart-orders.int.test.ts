/**
 * `hoga backtest` denies an order placed in `onStart` for a symbol that has no bars in the run
 * (`no-market-data`), as it denies one placed later: before, `onStart`'s orders passed that rule,
 * so an unknown symbol's was refused by a session rule it had no part in (`NOPE`, taken for a US
 * stock: `order-type-not-allowed … the regular session opens at 23:30 KST`) and a known one's
 * (`000660`, not in `--symbols`) was accepted and left working for the whole run. A symbol the
 * strategy subscribed to before the order, and the universe's, trade as before. The real CLI over
 * the simulator on 127.0.0.1, a real SQLite file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-onstart-orders-'));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-23T12:00:00.000+09:00', rateLimit: false });
});
afterAll(() => sim.close());

const STRATEGY = `import type { OrderEvent } from '@hoga/core';
import { Strategy } from '@hoga/engine';

export default class OnStartOrders extends Strategy {
  override onStart(): void {
    this.ctx.buy('NOPE', 1);
    this.ctx.buy('000660', 1, 100_000);
    this.ctx.subscribeBars('035420');
    this.ctx.buy('035420', 1);
    this.ctx.buy('005930', 1);
  }
  override onOrderEvent(e: OrderEvent): void {
    if (e.type === 'OrderDenied') this.ctx.log.info(\`EVENT \${e.type} \${e.code}: \${e.reason}\`);
    if (e.type === 'OrderFilled') this.ctx.log.info(\`EVENT \${e.type}\`);
  }
}
`;

describe('hoga backtest: an order placed in onStart', () => {
  it('for a symbol with no bars in the run is denied no-market-data; the universe and a subscribed symbol fill', async () => {
    const file = join(dir, 'onstart.ts');
    writeFileSync(file, STRATEGY);
    const run = await hoga(
      [
        'backtest',
        file,
        '--symbols',
        '005930',
        '--interval',
        '1m',
        '--from',
        '2026-11-23T10:00:00+09:00',
        '--to',
        '2026-11-23T10:05:00+09:00',
        '--db',
        join(dir, 'hoga.sqlite'),
        ...simFlags(sim.url),
      ],
      { cwd: dir },
    );
    expect(run.code, run.err).toBe(0);
    const events = run.err
      .split('\n')
      .filter((l) => l.includes('EVENT '))
      .map((l) => l.slice(l.indexOf('EVENT ') + 6).trim());
    const advice = 'has no bars in this backtest: add it to --symbols, or subscribe to its bars in onStart';
    expect(events).toEqual([
      `OrderDenied no-market-data: NOPE ${advice}`,
      `OrderDenied no-market-data: 000660 ${advice}`,
      'OrderFilled',
      'OrderFilled',
    ]);
    // before: "1 order still working when the backtest ended: BUY 1 000660 LIMIT 100000"
    expect(run.err).not.toContain('still working');
    expect(run.out).toMatch(/refused orders +2 \(no-market-data 2\)/);
  }, 60_000);
});
