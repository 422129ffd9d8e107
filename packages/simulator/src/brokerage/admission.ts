/**
 * The simulator's side of admission: builds what the broker model's rules look at (the market
 * moment, the account view) from the simulated market and ledger, and turns a refusal into its
 * HTTP answer. The rules themselves, and their order, live in `@hoga/broker-model`.
 *
 * @module
 */
import {
  type AccountView,
  cashBuyingPower,
  checkTradingRules,
  type MarketMoment,
  nextOrderOpen,
  sellableQuantity,
  type WorkingOrder,
} from '@hoga/broker-model';
import { SessionName, type TradableInstrument } from '@hoga/core';
import { DateTime } from 'luxon';
import type { MarketModel, SimInstrument } from '../market/market-model.js';
import { orThrow } from './brokerage-errors.js';
import type { Ledger } from './ledger.js';
import type { SimOrder } from './order-types.js';

/**
 * The simulated market at `now` for an instrument: its order session (and, when closed, the next
 * opening), the US regular session, price limits, last price and the display rate.
 */
export function marketMoment(market: MarketModel, instrument: SimInstrument, now: DateTime): MarketMoment {
  const session = market.orderSession(instrument.country, now);
  const sessionAt = (ms: number) =>
    market.orderSession(instrument.country, DateTime.fromMillis(ms, { zone: now.zone }));
  return {
    at: now,
    session,
    nextOpenAt: session === null ? nextOrderOpen(sessionAt, now) : null,
    // read only for the message of a refusal in an extended session: worked out then
    get regularOpenAt() {
      if (session === null || session === SessionName.REGULAR_MARKET) return null;
      return nextOrderOpen((ms) => (sessionAt(ms) === SessionName.REGULAR_MARKET ? session : null), now);
    },
    usRegularHours: market.usRegularSession(now),
    priceLimits: market.priceLimits(instrument.symbol, now),
    lastPrice: market.lastPrice(instrument.symbol, now),
    usdKrw: market.usdKrw(now),
  };
}

/**
 * The account as the rules see it for an order on `instrument`: buying power in its currency and
 * the sellable quantity of its symbol net of the open orders (the economics of the broker model),
 * and the open orders themselves.
 *
 * @param ledger - the account's cash and holdings
 * @param openOrders - the account's open orders, without the one a modify replaces
 */
export function accountView(
  ledger: Ledger,
  openOrders: readonly SimOrder[],
  instrument: TradableInstrument,
): AccountView {
  return {
    cashBuyingPower: cashBuyingPower(ledger.cash(instrument.currency), openOrders, instrument.currency),
    sellableQuantity: sellableQuantity(ledger.quantity(instrument.symbol), openOrders, instrument.symbol),
    openOrders,
  };
}

/** What admission needs to know about the account. */
export interface AdmissionContext {
  readonly market: MarketModel;
  readonly ledger: Ledger;
  /** Open orders of every account (the rules read the account's own). */
  readonly openOrders: readonly SimOrder[];
}

/**
 * The 422 rules and the money check of a new order, or of a modify's replacement (`replacing`
 * gives back its reservation and is exempt from the opposite-side rule): the broker model's
 * `checkTradingRules`, thrown as its HTTP answer.
 */
export function checkAdmission(
  ctx: AdmissionContext,
  instrument: TradableInstrument,
  accountSeq: number,
  order: WorkingOrder,
  moment: MarketMoment,
  replacing: SimOrder | null,
): void {
  const open = ctx.openOrders.filter((o) => o.accountSeq === accountSeq && o !== replacing);
  orThrow(
    checkTradingRules({
      instrument,
      order,
      moment,
      account: accountView(ctx.ledger, open, instrument),
      replacing: replacing !== null,
    }),
  );
}
