/**
 * What the USD/KRW rate's moves made on a run's USD cash, in KRW: the "of which FX" part of
 * its net profit.
 *
 * The run's equity values its dollars at the rate of each moment, so its net profit in KRW moves
 * with the rate even when nothing trades. This part is exactly
 *
 *   Σ U(t) · (r(t) − r(t⁻))   over the instants t where the rate steps,
 *
 * U(t) the USD cash held just before t, r the rate the run values dollars at. The rate is a step
 * function and the cash changes only at fills, so the sum is taken at each USD fill (the cash
 * before the fill times the rate's move since the last fill, or the start) and at the run's end;
 * a fill's own cash is counted at the rate of its time. With no USD fill it is U0 · (r1 − r0),
 * the start's USD cash times the move from the start's rate to the end's. What the positions held
 * in dollars gain or lose with the rate is the rest of the net profit, with the trading.
 *
 * The USD cash follows each fill as the books do: a buy takes its amount (quantity × price
 * rounded to the cent), commission and tax; a sell gives its amount less them. A sell past the
 * strategy's own shares (`fromAccount`) brings the rest of its amount in as the account's, not the
 * run's cash (as the equity counts it).
 *
 * @module
 */

import { roundCash } from '@hoga/broker-model';
import { Decimal } from '@hoga/core';
import type { BacktestTrade } from '../backtest/run-backtest.js';
import type { FxRates } from '../portfolio/fx-rates.js';

const ZERO = new Decimal(0);

/**
 * The KRW the USD/KRW rate's moves made on the USD cash from `start` to `end` (not rounded).
 *
 * @param startUsd - the USD cash at the start, in parts that add up to it (each strategy's and the
 *   account's; none: 0)
 * @param trades - the run's fills in the order they happened
 * @param start - the run's first equity point, epoch ms
 * @param end - its last equity point, epoch ms
 * @param fx - the rates the run valued its dollars at
 */
export function usdCashFx(
  startUsd: readonly (Decimal | undefined)[],
  trades: readonly BacktestTrade[],
  start: number,
  end: number,
  fx: FxRates,
): number {
  let usd = ZERO;
  for (const part of startUsd) if (part !== undefined) usd = usd.plus(part);
  let rate = fx.usdKrwAt(start);
  let total = 0;
  const held = new Map<string, Decimal>();
  for (const t of trades) {
    if (t.currency !== 'USD') continue;
    const now = fx.usdKrwAt(t.time);
    if (now !== rate) total += usd.toNumber() * (now - rate);
    rate = now;
    const key = `${t.strategyId}\u0000${t.symbol}`;
    const before = held.get(key) ?? ZERO;
    const amount = roundCash('USD', t.quantity.times(t.price));
    const charges = t.commission.plus(t.tax);
    if (t.side === 'BUY') {
      usd = usd.minus(amount).minus(charges);
      held.set(key, before.plus(t.quantity));
    } else {
      const own = t.quantity.gt(before) ? Decimal.max(ZERO, before) : t.quantity;
      const proceeds = own.eq(t.quantity) ? amount : roundCash('USD', own.times(t.price));
      usd = usd.plus(proceeds).minus(charges);
      held.set(key, before.minus(own));
    }
  }
  const last = fx.usdKrwAt(end);
  if (last !== rate) total += usd.toNumber() * (last - rate);
  return total;
}
