/**
 * The parity table's generated rows: fast-check draws (fixed seed) orders across the simulator's KR
 * and US symbols — limit and market, buy and sell, prices on and off the grid and at or beyond the
 * daily limits, quantities of 0, fractions and huge ones, amounts, sells beyond what is held — at
 * instants around the sessions' edges on ordinary, special and closed days, plus modifies and
 * cancels of open orders. Each is resolved against one simulator's market and account of the
 * moment, judged by the risk module (nothing sent) and sent with the risk module off; the codes
 * must agree, or differ as documented (below). Open orders left by a case are cancelled (or left
 * to expire) before the next one.
 */

import type { RuleCase } from '@hoga/broker-model';
import { BrokerApiError, type BrokerClient } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { generatedCase } from './risk-parity-generated.test-helper.js';
import { resolveCase } from './risk-parity-resolve.test-helper.js';
import { judgeBoth, SetupRefused } from './risk-parity-run.test-helper.js';

const SEED = Number(process.env.PARITY_SEED ?? 20_261_130);
const RUNS = Number(process.env.PARITY_RUNS ?? 200);

/**
 * Deliberate differences (docs/risk.md, "The parity table"): orders the broker takes but does not
 * carry out as asked, which the risk module denies before sending. A US limit price off the grid
 * would work truncated, at a price not asked (`risk-price-off-grid`); a US amount under 1 USD is
 * taken and then rejected (`risk-amount-below-minimum`).
 */
function deliberate(row: RuleCase, risk: string, simulator: string): boolean {
  if (simulator !== 'accepted' || row.instrument.market !== 'US') return false;
  const action = row.action;
  const price =
    action.kind === 'create'
      ? action.order.price
      : action.kind === 'modify'
        ? action.request.price
        : undefined;
  if (risk === 'risk-price-off-grid') return price !== undefined && new Decimal(price).decimalPlaces() > 2;
  const amount = action.kind === 'create' ? action.order.orderAmount : undefined;
  return risk === 'risk-amount-below-minimum' && amount !== undefined && new Decimal(amount).lt(1);
}

/** Cancels every order case left open (or lets it expire where a cancel is refused). */
async function tidy(sim: SimulatorHandle, client: BrokerClient): Promise<void> {
  const { orders } = await client.listOrders({ status: 'OPEN' });
  let expire = false;
  for (const order of orders) {
    sim.setClock(order.orderedAt);
    try {
      await client.cancelOrder(order.orderId);
    } catch (error) {
      if (!(error instanceof BrokerApiError)) throw error;
      expire = true;
    }
  }
  // a close order in its last 10 minutes cannot be cancelled: its day's end closes it
  if (expire) sim.advanceClock(2 * 86_400_000);
  const left = await client.listOrders({ status: 'OPEN' });
  expect(left.orders.map((o) => o.orderId)).toEqual([]);
}

const CASES = fc.sample(generatedCase, { seed: SEED, numRuns: RUNS });
/** Cases whose open order the simulator refused to place (e.g. on a suspended stock). */
const unplaced: string[] = [];
const results: { id: string; risk: string; simulator: string; row: RuleCase; reason: string }[] = [];

describe('risk parity with the simulator on generated orders', () => {
  let sim: SimulatorHandle;
  let clock: ReturnType<typeof simClock>;

  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      seed: 7,
      start: '2026-11-23T10:00:00+09:00',
      speed: 0,
      control: true,
      rateLimit: false,
    });
    clock = simClock(sim);
  });

  afterAll(async () => {
    await sim.close();
    const seen = new Map<string, number>();
    for (const r of results) seen.set(r.simulator, (seen.get(r.simulator) ?? 0) + 1);
    process.stdout.write(`simulator answers: ${[...seen].map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
    const differing = results.filter((r) => r.risk !== r.simulator);
    const lines = differing.map(
      (r) => `${r.id} risk=${r.risk} simulator=${r.simulator} ${JSON.stringify(r.row)}`,
    );
    process.stdout.write(
      `generated parity: ${results.length} run, ${differing.length} differ, ${unplaced.length} not set up\n${lines.join('\n')}\n`,
    );
  });

  for (const [index, c] of CASES.entries()) {
    it(`G${index} ${c.action} ${c.symbol} ${c.day} +${c.minute}m: risk code equals the simulator's`, async () => {
      // a client per case: the connector's own rate limits (MARKET_INFO: 3 a second) start full
      const client = simClient(sim, clock);
      try {
        const row = await resolveCase(c, index, sim, client);
        if (row === null) return;
        const judged = await judgeBoth(row, sim, client, clock).catch((error: unknown) => {
          if (!(error instanceof SetupRefused)) throw error;
          unplaced.push(row.id);
          return null;
        });
        if (judged === null) return await tidy(sim, client);
        const { risk, simulator, reason } = judged;
        results.push({ id: row.id, risk, simulator, row, reason });
        await tidy(sim, client);
        if (!deliberate(row, risk, simulator))
          expect(risk, `${reason}\n${JSON.stringify(row)}`).toBe(simulator);
      } finally {
        client.close();
      }
    });
  }

  it("runs most generated cases, and they reach many of the broker's answers", () => {
    // a generator that drifted into cases it cannot set up, or into one answer, would prove little
    expect(results.length).toBeGreaterThan(RUNS * 0.7);
    expect(new Set(results.map((r) => r.simulator)).size).toBeGreaterThanOrEqual(10);
  });
});
