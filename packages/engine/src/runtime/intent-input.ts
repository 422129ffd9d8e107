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

const stocks = new Map<string, Instrument>();

/** A symbol taken for a stock (built once per symbol). */
function stockOf(symbol: string): Instrument {
  let instrument = stocks.get(symbol);
  if (instrument === undefined) {
    instrument = instrumentOf(symbol);
    stocks.set(symbol, instrument);
  }
  return instrument;
}

/**
 * The intent input of `request` (market without a price, limit with one, amount for US buys).
 *
 * @param known - the run's instrument of a symbol (its real security type), undefined when unknown:
 *   the symbol is then taken for a stock
 */
export function intentInput(
  strategyId: StrategyId,
  clientOrderId: ClientOrderId,
  request: OrderRequest,
  known?: Instrument | undefined,
): OrderIntentInput {
  const instrument = known ?? stockOf(request.symbol);
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
