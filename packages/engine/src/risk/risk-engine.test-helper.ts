/**
 * A risk engine over a risk book, a memory gateway and a virtual clock, with the cancels the kill
 * switch sends collected: the risk engine's unit tests' fixture.
 *
 * @module
 */
import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderEvent,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import type { CancelOrder, OrderCommand } from '../commands/order-commands.js';
import { RiskBook } from './risk-book.js';
import { parseRiskConfig } from './risk-config.js';
import { RiskEngine } from './risk-engine.js';
import { T0 } from './risk-fixture.test-helper.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import { MemoryTradingStatePersistence } from './trading-state-persistence.js';

let seq = 0;
/** A limit order command (a buy unless `side` says otherwise). */
export function buy(
  symbol: string,
  quantity: string,
  price: string,
  strategy = 's1',
  side: 'BUY' | 'SELL' = 'BUY',
): OrderCommand {
  seq += 1;
  return {
    type: 'SubmitOrder',
    commandId: `c${seq}`,
    strategyId: strategyId(strategy),
    tsInit: T0,
    intent: createOrderIntent({
      clientOrderId: clientOrderId(`o${seq}`),
      strategyId: strategyId(strategy),
      instrument: instrumentOf(symbol),
      side,
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: new Decimal(quantity),
      price: new Decimal(price),
    }),
  };
}

/** The fixture, with `rawConfig` as the risk configuration. */
export function setup(rawConfig: unknown = {}) {
  const clock = new VirtualClock(T0);
  const store = new MemoryTradingStatePersistence();
  const gateway = new TradingStateGateway(clock, store);
  const book = new RiskBook();
  const cancels: CancelOrder[] = [];
  const engine = new RiskEngine({
    clock,
    config: parseRiskConfig(rawConfig),
    gateway,
    view: book,
    cancel: (c) => {
      cancels.push(c);
    },
  });
  /** Submits through the gate and, when accepted, records the order as the venue would. */
  const submit = (command: OrderCommand) => {
    const verdict = engine.check(command);
    if (verdict.accepted && command.type === 'SubmitOrder') {
      engine.onEvent({
        type: 'OrderSubmitted',
        eventId: `e-${command.commandId}`,
        clientOrderId: command.intent.clientOrderId,
        strategyId: command.strategyId,
        tsEvent: clock.nowMs(),
        tsInit: clock.nowMs(),
        intent: command.intent,
      });
    }
    return verdict;
  };
  const fill = (command: OrderCommand, price: string, commission = '0'): void => {
    if (command.type !== 'SubmitOrder' || command.intent.sizing !== 'QUANTITY') throw new Error('fixture');
    const i = command.intent;
    const f: Fill = {
      fillId: `f-${i.clientOrderId}`,
      clientOrderId: i.clientOrderId,
      brokerOrderId: 'b' as Fill['brokerOrderId'],
      symbol: i.instrument.symbol,
      side: i.side,
      quantity: i.quantity,
      price: new Decimal(price),
      commission: Money.of(new Decimal(commission), i.instrument.currency),
      cumulativeQuantity: i.quantity,
      tsEvent: clock.nowMs(),
    };
    const event: OrderEvent = {
      type: 'OrderFilled',
      eventId: `fill-${i.clientOrderId}`,
      clientOrderId: i.clientOrderId,
      strategyId: command.strategyId,
      tsEvent: clock.nowMs(),
      tsInit: clock.nowMs(),
      fill: f,
    };
    engine.onEvent(event);
  };
  return { clock, store, gateway, book, engine, cancels, submit, fill };
}
