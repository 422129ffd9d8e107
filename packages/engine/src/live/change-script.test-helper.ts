/**
 * The strategy of the modify-and-cancel parity test (`modify-cancel-modes.int.test.ts`), one file
 * run unchanged in backtest, paper and live: on its first bar of 005930 it places a few orders and
 * changes them in the same hook (a modify the broker takes, modifies it refuses, a cancel given
 * twice, a modify of a market order); once its market buy has filled, it modifies and cancels that
 * order; on its first bar of AAPL it modifies a US limit order's quantity. Each event of each
 * order is recorded under the scenario's name, with the order as the strategy then sees it. Test
 * code only.
 */
import {
  type Bar,
  type ClientOrderId,
  Decimal,
  instrumentOf,
  type OrderEvent,
  roundToTick,
} from '@hoga/core';
import { Strategy } from '../strategy/strategy.js';

/** What one scenario's order went through, as its strategy heard and saw it. */
export interface ScenarioRecord {
  /** Each event: its type, and for a refusal its code and whether it was sent (`type code sent`). */
  readonly events: string[];
  /** The order as `ctx.order` shows it after its last event: state, price, quantity. */
  last: string;
  /** How many changes (modify or cancel) were given for it. */
  changes: number;
}

/** The recordings of the current run, by scenario (reset by the test before each run). */
export const recorded = new Map<string, ScenarioRecord>();

/** The stamp of each symbol's first bar in the run (the test starts its backtest's bars there). */
export const firstBars = new Map<string, number>();

/** The scenario's change answered (modified, canceled or refused). */
const ANSWERS = new Set(['OrderModified', 'OrderModifyRejected', 'OrderCanceled', 'OrderCancelRejected']);

/** Every scenario of the script. */
export const SCENARIOS = [
  'modify-taken',
  'modify-off-grid',
  'modify-over-rest',
  'cancel-twice',
  'modify-market',
  'filled-then-changed',
  'us-modify-quantity',
] as const;

/** Whether every scenario ran and has each of its changes answered. */
export function allAnswered(): boolean {
  for (const name of SCENARIOS) {
    const r = recorded.get(name);
    if (r === undefined || r.changes === 0) return false;
    const answers = r.events.filter((e) => ANSWERS.has(e.split(' ')[0] as string)).length;
    if (answers < r.changes) return false;
  }
  return true;
}

function describeEvent(e: OrderEvent): string {
  switch (e.type) {
    case 'OrderModifyRejected':
    case 'OrderCancelRejected':
      return `${e.type} ${e.code} sent=${String(e.sent)}`;
    case 'OrderRejected':
    case 'OrderDenied':
      return `${e.type} ${e.code}`;
    default:
      return e.type;
  }
}

/** See the module description. */
export default class ChangeScript extends Strategy {
  private readonly names = new Map<ClientOrderId, string>();
  private started = false;
  private startedUs = false;
  private changedFilled = false;

  override onBar(bar: Bar): void {
    if (!firstBars.has(bar.symbol)) firstBars.set(bar.symbol, bar.ts);
    if (bar.symbol === 'AAPL' && !this.startedUs) {
      this.startedUs = true;
      // a US modify changes the price only: the broker refuses a quantity
      const low = roundToTick(instrumentOf('AAPL'), new Decimal(bar.close).times(0.9), 'down').toNumber();
      const us = this.track('us-modify-quantity', this.ctx.buy('AAPL', 1, low));
      this.change('us-modify-quantity', us, (id) => this.ctx.modify(id, { quantity: 2 }));
    }
    if (bar.symbol !== '005930') return;
    if (!this.started) {
      this.started = true;
      this.script(bar.close);
    }
  }

  override onOrderEvent(event: OrderEvent): void {
    const name = this.names.get(event.clientOrderId);
    if (name === undefined) return;
    const r = recorded.get(name) as ScenarioRecord;
    r.events.push(describeEvent(event));
    const o = this.ctx.order(event.clientOrderId);
    r.last = o === undefined ? 'unknown' : `${o.state} ${o.price?.toFixed() ?? '-'} ${o.quantity?.toFixed()}`;
    if (name === 'filled-then-changed' && event.type === 'OrderFilled' && !this.changedFilled) {
      this.changedFilled = true;
      // in a later hook than the fill: the strategy knows the order filled
      this.change(name, event.clientOrderId, (id) => this.ctx.cancel(id));
      this.change(name, event.clientOrderId, (id) => this.ctx.modify(id, { price: 1000 }));
    }
  }

  private track(name: string, id: ClientOrderId): ClientOrderId {
    this.names.set(id, name);
    recorded.set(name, { events: [], last: '', changes: 0 });
    return id;
  }

  private change(name: string, id: ClientOrderId, act: (id: ClientOrderId) => void): void {
    (recorded.get(name) as ScenarioRecord).changes++;
    act(id);
  }

  private script(close: number): void {
    const symbol = '005930';
    const instrument = instrumentOf(symbol);
    const price = (f: number) => roundToTick(instrument, new Decimal(close).times(f), 'down').toNumber();
    const low = price(0.9);
    // a modify the broker takes: a new price on the grid, the quantity kept
    const taken = this.track('modify-taken', this.ctx.buy(symbol, 2, low));
    this.change('modify-taken', taken, (id) => this.ctx.modify(id, { price: price(0.91) }));
    // a modify the broker refuses for its price: off the tick grid
    const offGrid = this.track('modify-off-grid', this.ctx.buy(symbol, 2, low));
    this.change('modify-off-grid', offGrid, (id) => this.ctx.modify(id, { price: low + 1 }));
    // a modify the broker refuses for its quantity: more than the unfilled 2
    const more = this.track('modify-over-rest', this.ctx.buy(symbol, 2, low));
    this.change('modify-over-rest', more, (id) => this.ctx.modify(id, { quantity: 5 }));
    // a cancel, and a second cancel of the same order in the same hook
    const twice = this.track('cancel-twice', this.ctx.buy(symbol, 2, low));
    this.change('cancel-twice', twice, (id) => this.ctx.cancel(id));
    this.change('cancel-twice', twice, (id) => this.ctx.cancel(id));
    // a modify of a market order given with it (a price: the broker's MARKET takes none)
    const market = this.track('modify-market', this.ctx.buy(symbol, 1));
    this.change('modify-market', market, (id) => this.ctx.modify(id, { price: low }));
    // a market buy, modified and cancelled once the strategy heard it filled
    this.track('filled-then-changed', this.ctx.buy(symbol, 1));
  }
}
