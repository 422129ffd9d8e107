/**
 * Builders of risk contexts and subjects for the guards' unit tests (a VirtualClock gives the time).
 */
import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderIntentInput,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { RiskBook } from './risk-book.js';
import { limitsFor, parseRiskConfig } from './risk-config.js';
import {
  loopKeyOf,
  type OpenOrderView,
  type OrderActionRecord,
  type RiskContext,
  type RiskSubject,
  TradingState,
} from './risk-types.js';

/** 2026-11-23 10:00 KST (a Monday, KR regular session). */
export const T0 = Date.parse('2026-11-23T10:00:00+09:00');

/** A virtual clock at {@link T0}. */
export function fixtureClock(): VirtualClock {
  return new VirtualClock(T0);
}

/** A context with no positions, orders or actions, ACTIVE everywhere, default limits. */
export function ctx(
  clock: VirtualClock,
  over: Partial<RiskContext> & { rawConfig?: unknown } = {},
): RiskContext {
  const config = parseRiskConfig(over.rawConfig ?? {});
  const { rawConfig: _raw, ...rest } = over;
  return {
    nowMs: clock.nowMs(),
    config,
    limits: limitsFor(config, 's1'),
    states: { account: TradingState.ACTIVE, strategy: TradingState.ACTIVE, symbol: TradingState.ACTIVE },
    positions: [],
    openOrders: [],
    usdKrw: new Decimal(1400),
    lastPrices: new Map([
      ['005930', new Decimal(70000)],
      ['AAPL', new Decimal(200)],
    ]),
    actions: [],
    dailyPnlKrw: { strategy: new Decimal(0), account: new Decimal(0) },
    ...rest,
  };
}

/** A limit create of strategy `s1`. */
export function createSubject(
  over: { symbol?: string; side?: 'BUY' | 'SELL'; quantity?: string; price?: string } = {},
): RiskSubject {
  const symbol = over.symbol ?? '005930';
  const instrument = instrumentOf(symbol);
  const quantity = new Decimal(over.quantity ?? '10');
  const price = new Decimal(over.price ?? (instrument.currency === 'USD' ? '200' : '70000'));
  const input: OrderIntentInput = {
    clientOrderId: clientOrderId(`c-${symbol}-${quantity}`),
    strategyId: strategyId('s1'),
    instrument,
    side: over.side ?? 'BUY',
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity,
    price,
  };
  const intent = createOrderIntent(input);
  const command: OrderCommand = {
    type: 'SubmitOrder',
    commandId: 'cmd-1',
    strategyId: strategyId('s1'),
    tsInit: T0,
    intent,
  };
  const native = quantity.times(price);
  return {
    command,
    action: 'create',
    strategyId: strategyId('s1'),
    clientOrderId: intent.clientOrderId,
    symbol,
    market: instrument.market,
    currency: instrument.currency,
    side: intent.side,
    orderType: 'LIMIT',
    price,
    quantity,
    amount: null,
    valueKrw: instrument.currency === 'USD' ? native.times(1400) : native,
    target: null,
  };
}

/** An open order of `s1` (or another strategy). */
export function openOrder(over: Partial<OpenOrderView> = {}): OpenOrderView {
  return {
    clientOrderId: 'o-1',
    strategyId: 's1',
    symbol: '005930',
    market: 'KR',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'LIMIT',
    price: new Decimal(70000),
    remainingQuantity: new Decimal(10),
    amount: null,
    ...over,
  };
}

/** A modify or cancel subject of an open order. */
export function changeSubject(
  action: 'modify' | 'cancel',
  target: OpenOrderView,
  price?: string,
): RiskSubject {
  const p = price === undefined ? target.price : new Decimal(price);
  const command: OrderCommand =
    action === 'cancel'
      ? {
          type: 'CancelOrder',
          commandId: 'cmd-2',
          strategyId: strategyId(target.strategyId),
          tsInit: T0,
          clientOrderId: clientOrderId(target.clientOrderId),
        }
      : {
          type: 'ModifyOrder',
          commandId: 'cmd-2',
          strategyId: strategyId(target.strategyId),
          tsInit: T0,
          clientOrderId: clientOrderId(target.clientOrderId),
          orderType: target.orderType,
          ...(p === null ? {} : { price: p }),
          confirmHighValue: false,
        };
  const value =
    action === 'cancel' ? new Decimal(0) : (target.remainingQuantity ?? new Decimal(0)).times(p ?? 0);
  return {
    command,
    action,
    strategyId: strategyId(target.strategyId),
    clientOrderId: target.clientOrderId,
    symbol: target.symbol,
    market: target.market,
    currency: target.currency,
    side: target.side,
    orderType: target.orderType,
    price: p,
    quantity: target.remainingQuantity,
    amount: target.amount,
    valueKrw: value,
    target,
  };
}

/** `n` action records, one every `stepMs` ending at `endMs`. */
export function actions(
  n: number,
  endMs: number,
  stepMs: number,
  over: Partial<OrderActionRecord> = {},
): OrderActionRecord[] {
  const out: OrderActionRecord[] = [];
  for (let i = n - 1; i >= 0; i--) {
    out.push({
      tsMs: endMs - i * stepMs,
      strategyId: 's1',
      symbol: '005930',
      action: 'create',
      loopKey: loopKeyOf('s1', '005930', 'BUY'),
      replace: false,
      ...over,
    });
  }
  return out;
}

let filled = 0;

/** Books a complete fill of a new limit order of strategy `s1` (KRW commission) on `book` at `atMs`. */
export function bookFill(
  book: RiskBook,
  side: 'BUY' | 'SELL',
  quantity: number,
  price: number,
  commission: number,
  atMs: number,
  symbol = '005930',
): void {
  filled += 1;
  const id = clientOrderId(`p${filled}`);
  const sid = strategyId('s1');
  const intent = createOrderIntent({
    clientOrderId: id,
    strategyId: sid,
    instrument: instrumentOf(symbol),
    side,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: new Decimal(quantity),
    price: new Decimal(price),
  });
  const base = { clientOrderId: id, strategyId: sid, tsEvent: atMs, tsInit: atMs };
  book.onEvent({ type: 'OrderSubmitted', eventId: `s-${id}`, ...base, intent });
  const fill: Fill = {
    fillId: `f-${id}`,
    clientOrderId: id,
    brokerOrderId: 'x' as Fill['brokerOrderId'],
    symbol,
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    commission: Money.of(new Decimal(commission), 'KRW'),
    cumulativeQuantity: new Decimal(quantity),
    tsEvent: atMs,
  };
  book.onEvent({ type: 'OrderFilled', eventId: `f-${id}`, ...base, fill });
}
