/**
 * A generated case made concrete against the simulator's market and account of the moment: prices
 * from its last price and daily limits, sell quantities from what is sellable, large open orders
 * from the buying power.
 */

import {
  orderSessionAt,
  type RuleCase,
  type RuleCaseOpenOrder,
  type RuleCaseOrder,
} from '@hoga/broker-model';
import type { BrokerClient } from '@hoga/connector';
import {
  Decimal,
  formatKst,
  type Instrument,
  instrumentOf,
  KST_ZONE,
  PLAIN_TRADING_FLAGS,
  roundToTick,
  type SecurityType,
  SessionName,
  tickSize,
} from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { DateTime } from 'luxon';
import {
  ETFS,
  type GeneratedCase,
  HELD,
  isUs,
  type PriceKind,
  type QuantityKind,
} from './risk-parity-generated.test-helper.js';

function instrumentFor(symbol: string): Instrument {
  const type: SecurityType = ETFS.has(symbol) ? 'ETF' : 'STOCK';
  return instrumentOf(symbol, type);
}

/** The KST instant of a case. */
export function caseInstant(c: GeneratedCase): DateTime {
  return DateTime.fromISO(c.day, { zone: KST_ZONE }).plus({ minutes: c.minute });
}

/** Symbols no order can rest on (suspended; the prerequisite missing): never a modify's target. */
const UNPLACEABLE = new Set(['900110', 'SOXL']);
/** KR symbols NXT does not trade: they rest only in the regular session. */
const REGULAR_ONLY = new Set(['069500']);

/**
 * The last minute at or before `at` (within a day) at which an order on `symbol` can be placed (a
 * close order, or a KR stock NXT does not trade: in the regular session), or null.
 */
function lastOpenMinute(symbol: string, at: DateTime, regular: boolean): DateTime | null {
  const market = isUs(symbol) ? 'US' : 'KR';
  for (let back = 0; back <= 24 * 60; back += 1) {
    const t = at.minus({ minutes: back });
    const session = orderSessionAt(market, t.toMillis());
    if (session !== null && (!regular || session === SessionName.REGULAR_MARKET)) return t;
  }
  return null;
}

/** What the market and account are at the moment, read over HTTP. */
interface Marks {
  readonly last: Decimal;
  readonly upper: Decimal | null;
  readonly lower: Decimal | null;
  readonly sellable: Decimal;
  readonly cash: Decimal;
}

async function marksOf(client: BrokerClient, symbol: string): Promise<Marks> {
  const [price] = await client.getPrices([symbol]);
  const limits = await client.getPriceLimits(symbol);
  const sellable = await client.getSellableQuantity(symbol);
  const cash = await client.getBuyingPower(isUs(symbol) ? 'USD' : 'KRW');
  return {
    cash: cash.cashBuyingPower,
    last: price?.lastPrice ?? new Decimal(1),
    upper: limits.upperLimitPrice,
    lower: limits.lowerLimitPrice,
    sellable: sellable.sellableQuantity,
  };
}

function priceOf(kind: PriceKind, instrument: Instrument, m: Marks): string {
  const onGrid = roundToTick(instrument, m.last, 'down');
  const tick = tickSize(instrument, onGrid);
  const upper = m.upper ?? roundToTick(instrument, m.last.times(1.5), 'down');
  const lower = m.lower ?? roundToTick(instrument, m.last.times(0.5), 'up');
  switch (kind.kind) {
    case 'ticks': {
      const p = onGrid.plus(tick.times(kind.n));
      return (p.lte(0) ? tick : p).toFixed();
    }
    case 'upper':
      return upper.toFixed();
    case 'lower':
      return lower.toFixed();
    case 'aboveUpper':
      return upper.plus(tickSize(instrument, upper)).toFixed();
    case 'belowLower':
      return lower.minus(tickSize(instrument, lower)).toFixed();
    case 'offGrid':
      return instrument.market === 'US' ? onGrid.plus('0.001').toFixed() : onGrid.plus(1).toFixed();
    case 'zero':
      return '0';
    case 'halfWon':
      return onGrid.plus('0.5').toFixed();
  }
}

function quantityOf(
  kind: QuantityKind,
  m: Marks,
  price: string | undefined,
  usdKrw: Decimal,
  us: boolean,
  target: string | undefined,
): string | undefined {
  switch (kind.kind) {
    case 'none':
      return undefined;
    case 'target':
      return target ?? '1';
    case 'fixed':
      return kind.value;
    case 'held': {
      const q = m.sellable.plus(kind.plus);
      return q.lt(0) ? '0' : q.toFixed();
    }
    case 'highValue': {
      const unit = new Decimal(price ?? m.last.toFixed()).times(us ? usdKrw : 1);
      return unit.lte(0)
        ? '1'
        : Decimal.max(1, new Decimal(100_000_000).div(unit).ceil().plus(kind.plus)).toFixed();
    }
  }
}

/** A large open order: a buy of about 90% of the cash buying power, a sell of all that is sellable. */
function large(side: 'BUY' | 'SELL', price: string, m: Marks): string {
  if (side === 'SELL') return m.sellable.floor().lt(1) ? '1' : m.sellable.floor().toFixed();
  return Decimal.max(1, m.cash.times('0.9').div(price).floor()).toFixed();
}

/**
 * A generated case as a concrete row, against the simulator's market and account: the clock is
 * set where the row's open orders are placed (the case's instant, or the last minute before it
 * that takes orders), and prices and quantities are drawn from what stands there. Null when a
 * modify or cancel has no open session to place its target in.
 */
export async function resolveCase(
  c: GeneratedCase,
  index: number,
  sim: SimulatorHandle,
  client: BrokerClient,
): Promise<RuleCase | null> {
  const us = isUs(c.symbol);
  const instrument = instrumentFor(c.symbol);
  const at = caseInstant(c);
  const change = c.action !== 'create';
  if (change && UNPLACEABLE.has(c.symbol)) return null;
  const regular = REGULAR_ONLY.has(c.symbol) || (us && c.open?.cls === true);
  const openAt = c.open !== null || change ? lastOpenMinute(c.symbol, at, regular) : null;
  if (change && openAt === null) return null;
  // the market as it stands where the open orders are placed (they must rest there)
  sim.setClock(openAt ?? at);
  const m = await marksOf(client, c.symbol);
  // the rate only where a quantity is drawn around the high-value threshold (MARKET_INFO is 3 a second)
  const usdKrw =
    us && c.quantity.kind === 'highValue' ? (await client.getExchangeRate()).rate : new Decimal(1380);
  const price = c.price === null ? undefined : priceOf(c.price, instrument, m);
  const openOrders: RuleCaseOpenOrder[] = [];
  const openSpec = c.open ?? (change ? { side: c.side, ticksAway: 5, quantity: 1, cls: false } : null);
  if (openSpec !== null && openAt !== null) {
    // a sell only where account 1 holds shares; priced away from the last price so it rests (or
    // just through it, so it may fill)
    const side = HELD.includes(c.symbol) ? openSpec.side : 'BUY';
    const away = openSpec.quantity > 0 ? openSpec.ticksAway : Math.max(3, openSpec.ticksAway);
    const n = side === 'BUY' ? -away : away;
    const openPrice = priceOf({ kind: 'ticks', n }, instrument, m);
    openOrders.push({
      symbol: c.symbol,
      side,
      orderType: 'LIMIT',
      quantity: openSpec.quantity > 0 ? String(openSpec.quantity) : large(side, openPrice, m),
      price: openPrice,
      ...(us && openSpec.cls ? { timeInForce: 'CLS' as const } : {}),
    });
  }
  const quantity = quantityOf(c.quantity, m, price, usdKrw, us, openOrders[0]?.quantity);
  const order: RuleCaseOrder = {
    symbol: c.symbol,
    side: c.side,
    orderType: c.orderType,
    ...(c.timeInForce === undefined ? {} : { timeInForce: c.timeInForce }),
    ...(quantity === undefined ? {} : { quantity }),
    ...(price === undefined ? {} : { price }),
    ...(c.amount === null ? {} : { orderAmount: c.amount }),
    confirmHighValueOrder: c.confirm,
  };
  const setupAt =
    openAt !== null && openOrders.length > 0 && !openAt.equals(at) ? formatKst(openAt) : undefined;
  const action: RuleCase['action'] =
    c.action === 'create'
      ? { kind: 'create', order }
      : c.action === 'cancel'
        ? { kind: 'cancel', targetStatus: c.targetCanceled ? 'CANCELED' : 'PENDING' }
        : {
            kind: 'modify',
            targetStatus: c.targetCanceled ? 'CANCELED' : 'PENDING',
            request: {
              orderType: c.orderType,
              ...(price === undefined ? {} : { price }),
              ...(quantity === undefined ? {} : { quantity }),
              confirmHighValueOrder: c.confirm,
            },
          };
  return {
    id: `G${String(index).padStart(3, '0')}`,
    rule: 'generated',
    description: `${c.action} ${c.symbol} at ${formatKst(at)}`,
    instrument: {
      symbol: c.symbol,
      market: us ? 'US' : 'KR',
      currency: us ? 'USD' : 'KRW',
      securityType: instrument.securityType,
      flags: PLAIN_TRADING_FLAGS,
    },
    account: { cash: { KRW: '50000000', USD: '20000' }, holdings: {}, openOrders },
    moment: {
      at: formatKst(at),
      session: null,
      lastPrice: m.last.toFixed(),
      referencePrice: null,
      usdKrw: usdKrw.toFixed(),
      usRegularHours: null,
    },
    ...(setupAt === undefined ? {} : { setupAt }),
    action,
    expected: 'accepted',
  };
}
