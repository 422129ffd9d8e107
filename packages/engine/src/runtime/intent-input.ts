/**
 * A strategy's order request as core's order intent input (validated by `createOrderIntent`).
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  type Instrument,
  instrumentOf,
  type OrderIntentInput,
  type StrategyId,
} from '@hoga/core';
import type { OrderRequest } from '../strategy/strategy-context.js';

const instruments = new Map<string, Instrument>();

/** The instrument of a symbol (built once per symbol). */
function instrumentFor(symbol: string): Instrument {
  let instrument = instruments.get(symbol);
  if (instrument === undefined) {
    instrument = instrumentOf(symbol);
    instruments.set(symbol, instrument);
  }
  return instrument;
}

/** The intent input of `request` (market without a price, limit with one, amount for US buys). */
export function intentInput(
  strategyId: StrategyId,
  clientOrderId: ClientOrderId,
  request: OrderRequest,
): OrderIntentInput {
  const instrument = instrumentFor(request.symbol);
  if ('amount' in request) {
    return {
      clientOrderId,
      strategyId,
      instrument,
      side: 'BUY',
      sizing: 'AMOUNT',
      orderType: 'MARKET',
      amount: new Decimal(request.amount),
    };
  }
  const quantity = new Decimal(request.quantity);
  if (request.price === undefined) {
    return {
      clientOrderId,
      strategyId,
      instrument,
      side: request.side,
      sizing: 'QUANTITY',
      orderType: 'MARKET',
      quantity,
    };
  }
  return {
    clientOrderId,
    strategyId,
    instrument,
    side: request.side,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity,
    price: new Decimal(request.price),
    ...(request.timeInForce === undefined ? {} : { timeInForce: request.timeInForce }),
  };
}
