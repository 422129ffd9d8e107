/**
 * What a backtest says of the orders still working when it ended: an order placed on the last bar
 * or in `onStop` (a strategy liquidating as it stops) has no later bar to fill it, and a resting
 * limit order its price was never reached for stays open too. Said once, with the first few.
 *
 * @module
 */
import { formatDecimal, type Logger } from '@hoga/core';
import type { SimulatedOrder } from '../venue/simulated-order.js';

/** Most orders named in the message. */
const NAMED = 5;

/** One working order as the message names it: `SELL 10 005930 MARKET (strategy liq)`. */
function describe(o: SimulatedOrder): string {
  const size =
    o.quantity !== null
      ? formatDecimal(o.quantity.minus(o.filledQuantity))
      : `${o.orderAmount === null ? '?' : formatDecimal(o.orderAmount)} USD of`;
  const price = o.orderType === 'LIMIT' && o.price !== null ? ` ${formatDecimal(o.price)}` : '';
  const who = o.strategyId === undefined ? '' : ` (strategy ${o.strategyId})`;
  return `${o.side} ${size} ${o.symbol} ${o.orderType}${price}${who}`;
}

/**
 * Says (a warning) how many orders were still working when the backtest ended, naming the first
 * {@link NAMED}; says nothing when none was.
 *
 * @param working - the venue's working orders at the end, in the order placed
 */
export function sayOpenAtEnd(log: Logger, working: readonly SimulatedOrder[]): void {
  if (working.length === 0) return;
  const named = working.slice(0, NAMED).map(describe).join(', ');
  const more = working.length > NAMED ? `, and ${working.length - NAMED} more` : '';
  const count = working.length === 1 ? '1 order' : `${working.length} orders`;
  log.warn(
    `${count} still working when the backtest ended (an order placed on the last bar or in onStop has no ` +
      `later bar to fill it): ${named}${more}`,
  );
}
