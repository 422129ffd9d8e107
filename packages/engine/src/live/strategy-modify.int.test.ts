/**
 * A strategy changing only the price of its resting KR limit order (`ctx.modify(id, { price })`),
 * live and paper over the simulator: the broker needs a KR modify's quantity, which the engine
 * fills in with the unfilled rest, and the order moves to the new price under its `clientOrderId`.
 */
import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  startRunOf005930,
  startSimulatedBroker,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests a buy of 2 at 5 % under the close; once it is accepted, raises its price to 4 % under. */
class RaiseOnce extends Strategy {
  static events: string[] = [];
  static prices: string[] = [];
  static quantities: string[] = [];
  private id: ClientOrderId | undefined;
  private raised = false;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    if (this.id === undefined) {
      this.id = this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.95) / 100) * 100);
      return;
    }
    const order = this.ctx.order(this.id);
    if (!this.raised && order?.state === 'ACCEPTED') {
      this.raised = true;
      this.ctx.modify(this.id, { price: Math.floor((bar.close * 0.96) / 100) * 100 });
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    RaiseOnce.events.push(
      event.type === 'OrderModifyRejected' ? `${event.type} ${event.code}: ${event.reason}` : event.type,
    );
    const order = this.id === undefined ? undefined : this.ctx.order(this.id);
    RaiseOnce.prices.push(order?.price?.toFixed() ?? '-');
    RaiseOnce.quantities.push(order?.quantity?.toFixed() ?? '-');
  }
}

describe('a strategy modifying the price of its KR limit order', () => {
  for (const mode of ['live', 'paper'] as const) {
    it(`${mode}: the order moves to the new price (the quantity filled in with the unfilled rest)`, async () => {
      const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-${mode}-modify-`, clock);
      RaiseOnce.events = [];
      RaiseOnce.prices = [];
      RaiseOnce.quantities = [];
      const run = await startRunOf005930({ client, clock, db }, mode, { strategyClass: RaiseOnce });
      try {
        await until(() =>
          RaiseOnce.events.some((e) => e === 'OrderModified' || e.startsWith('OrderModifyRejected')),
        );
      } finally {
        await run.handle.stop();
      }
      // the same events in both modes: the modify requested, then done
      expect(RaiseOnce.events).toEqual([
        'OrderSubmitted',
        'OrderAccepted',
        'OrderModifyRequested',
        'OrderModified',
      ]);
      // the price the strategy sees moved up once; the quantity is still 2 (none filled)
      const prices = RaiseOnce.prices.map(Number);
      expect(prices.at(-1)).toBeGreaterThan(prices[0] as number);
      expect(RaiseOnce.quantities.at(-1)).toBe('2');
      const submitted = run.events.find((e) => e.type === 'OrderSubmitted');
      const modified = run.events.find((e) => e.type === 'OrderModified');
      if (submitted?.type !== 'OrderSubmitted' || modified?.type !== 'OrderModified')
        throw new Error('no events');
      expect(modified.clientOrderId).toBe(submitted.clientOrderId);
    }, 90_000);
  }
});

/** Rests a buy of 2 at 5 % under the close; once it is accepted, cuts its quantity to 1 (no price given). */
class CutOnce extends Strategy {
  static events: string[] = [];
  static seen: string[] = [];
  private id: ClientOrderId | undefined;
  private cut = false;

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    if (this.id === undefined) {
      this.id = this.ctx.buy(bar.symbol, 2, Math.floor((bar.close * 0.95) / 100) * 100);
      return;
    }
    if (!this.cut && this.ctx.order(this.id)?.state === 'ACCEPTED') {
      this.cut = true;
      this.ctx.modify(this.id, { quantity: 1 });
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    CutOnce.events.push(
      event.type === 'OrderModifyRejected' ? `${event.type} ${event.code}: ${event.reason}` : event.type,
    );
    const order = this.id === undefined ? undefined : this.ctx.order(this.id);
    CutOnce.seen.push(`${order?.quantity?.toFixed() ?? '-'} @ ${order?.price?.toFixed() ?? '-'}`);
  }
}

describe('a strategy modifying the quantity of its KR limit order', () => {
  for (const mode of ['live', 'paper'] as const) {
    // before: refused at once, 'OrderModifyRejected invalid-request: A LIMIT order needs a price',
    // though ctx.modify takes the price as optional
    it(`${mode}: the order keeps its price with the new quantity`, async () => {
      const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-${mode}-modify-quantity-`, clock);
      CutOnce.events = [];
      CutOnce.seen = [];
      const run = await startRunOf005930({ client, clock, db }, mode, { strategyClass: CutOnce });
      try {
        await until(() =>
          CutOnce.events.some((e) => e === 'OrderModified' || e.startsWith('OrderModifyRejected')),
        );
      } finally {
        await run.handle.stop();
      }
      expect(CutOnce.events).toEqual([
        'OrderSubmitted',
        'OrderAccepted',
        'OrderModifyRequested',
        'OrderModified',
      ]);
      const [first = '', , , last = ''] = CutOnce.seen;
      expect(last).toBe(first.replace(/^2 @/, '1 @'));
    }, 90_000);
  }
});
