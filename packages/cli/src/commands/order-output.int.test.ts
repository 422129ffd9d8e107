/**
 * What `hoga order buy|sell` tells about an order it sent, as a child process over the simulator
 * with a real SQLite file. Before: a market order that filled at once printed `sent: cli-… (broker
 * order …): OrderSubmitted, OrderAccepted, OrderFilled` (`--json`: the event names) and never the
 * quantity or the price it filled at; the user had to look it up with hoga db orders. And a denial
 * for the broker's high-value rule named the API field (`confirmHighValueOrder=true`), not the flag.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order buy that fills at once, or rests', () => {
  it('says how much filled, at what average price, and the state', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    const text = await hoga(['order', 'buy', '005930', '2', '--market'], environment);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^sent: cli-.*OrderFilled; filled 2 at an average \d{2},\d{3} KRW$/m);
    const json = await hoga(['order', 'buy', '005930', '1', '--market', '--json'], environment);
    expect(json.code).toBe(0);
    const filled = JSON.parse(json.out.split('\n')[0]!) as Record<string, unknown>;
    expect(filled).toMatchObject({ sent: true, state: 'FILLED', filledQuantity: '1' });
    expect(filled.averageFillPrice).toMatch(/^\d+$/);
    const resting = await hoga(['order', 'buy', '005930', '1', '--limit', '50000', '--json'], environment);
    expect(resting.code).toBe(0);
    expect(JSON.parse(resting.out.split('\n')[0]!)).toMatchObject({
      state: 'ACCEPTED',
      filledQuantity: '0',
      averageFillPrice: null,
    });
    const restingText = await hoga(['order', 'buy', '005930', '1', '--limit', '50000'], environment);
    expect(restingText.out).toMatch(/^sent: cli-.*: OrderSubmitted, OrderAccepted; nothing filled yet$/m);
  }, 120_000);
});

describe('hoga order buy of 100,000,000 KRW or more', () => {
  it('names the flag that confirms it', async () => {
    const { sim, db } = await setup(true, 1);
    const run = await hoga(['order', 'buy', '005930', '2000', '--limit', '60000'], env(sim, db));
    expect(run.code).toBe(3);
    expect(run.out).toMatch(/^denied: confirm-high-value-required: .*give --confirm-high-value/m);
  }, 120_000);
});

// Before: --csv (a flag of every broker command) was taken and ignored: the order was sent and a
// line of text printed where a script expected CSV.
describe('hoga order buy --csv', () => {
  it('is refused as bad usage (exit 2) and sends nothing', async () => {
    const { sim, db } = await setup(true, 1);
    const run = await hoga(['order', 'buy', '005930', '1', '--limit', '50000', '--csv'], env(sim, db));
    expect(run.code).toBe(2);
    expect(run.out).toContain('--csv');
    expect(run.out).toContain('--json');
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});

// Before: a US limit below the broker's grid (cents from $1) was sent as given; the broker truncated
// it (100.129 rested at 100.12) while hoga's store and output kept 100.129.
describe('hoga order buy of a US stock at a price off the cent grid', () => {
  it('is refused as bad usage (exit 2), naming the price the broker would take', async () => {
    const { sim, db } = await setup(true, 1);
    const environment = env(sim, db);
    const run = await hoga(['order', 'buy', 'AAPL', '1', '--limit', '100.129'], environment);
    expect(run.code).toBe(2);
    expect(run.out).toContain('--limit 100.129');
    expect(run.out).toContain('100.12');
    const sub = await hoga(['order', 'buy', 'AAPL', '1', '--limit', '0.12345', '--check'], environment);
    expect(sub.code).toBe(2);
    expect(sub.out).toContain('0.1234');
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});
