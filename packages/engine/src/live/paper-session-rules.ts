/**
 * The broker's session rules for a new paper order when the risk module is disabled, by the broker
 * model's session hours and known holidays: the fallback of `PaperBrokerRules`
 * (`paper-broker-rules.ts`) where the broker's market data (its calendar, the symbol's price) is
 * missing, so that paper still refuses what the broker refuses for the session (live, the broker
 * does; with the risk module on, it judges them against the broker's calendars; a backtest judges
 * them in its own broker rules). The rules of the broker model, with its codes and messages:
 * - any order outside order hours: `order-hours-closed`, saying when orders are taken again;
 * - an amount or fractional order outside the US regular session's window:
 *   `amount-order-outside-regular-hours`;
 * - a `MARKET` order (and a `CLS` one) outside the regular session: `order-type-not-allowed`.
 *
 * Before, the paper venue took them: a market buy placed in the pre-market, or at 03:00, held cash
 * at the last price and filled against the next book the paper account polled, where the broker
 * answers 422 and live's strategy hears `OrderRejected`.
 *
 * And when a working order may trade ({@link paperOrderMayTrade}): a market order, and any order of
 * a KR stock not on the alternative exchange, in the regular session only, as the broker matches
 * (by the broker's calendar where it was read: {@link calendarSessionAt}).
 *
 * @module
 */
import {
  checkAmountOrderWindow,
  checkOrderHours,
  checkOrderTypeInSession,
  isAmountOrFractional,
  nextOrderOpen,
  orderSessionAt,
  usRegularSessionAt,
} from '@hoga/broker-model';
import { type BrokerVerdict, KST_ZONE, Market, type OrderIntent, OrderType, SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import { fromRefusal } from '../risk/broker-rules-check.js';
import type { RiskVerdict } from '../risk/risk-gate.js';
import type { OrderSessionSource } from '../runtime/calendar-order-hours.js';

/** The refusal of the session rules of `intent` placed at `nowMs` (see the module), else null. */
export function paperSessionRefusal(intent: OrderIntent, nowMs: number): RiskVerdict | null {
  const instrument = intent.instrument;
  const market = instrument.market;
  const at = DateTime.fromMillis(nowMs, { zone: KST_ZONE });
  const session = orderSessionAt(market, nowMs);
  if (session === null) {
    const nextOpenAt = nextOrderOpen((ms) => orderSessionAt(market, ms), at);
    return refusalOf(checkOrderHours(instrument, { at, session, nextOpenAt }));
  }
  const amount = intent.sizing === 'AMOUNT';
  const fields = { orderAmount: amount ? intent.amount : null, quantity: amount ? null : intent.quantity };
  if (isAmountOrFractional(fields)) {
    const span = usRegularSessionAt(nowMs);
    const regular =
      span === null
        ? null
        : {
            start: DateTime.fromMillis(span.start, { zone: KST_ZONE }),
            end: DateTime.fromMillis(span.end, { zone: KST_ZONE }),
          };
    const field = amount ? 'orderAmount' : 'quantity';
    const opensAt = regular === null ? regularOpenAt(market, at) : null;
    const refusal = refusalOf(checkAmountOrderWindow(field, regular, at, opensAt));
    if (refusal !== null) return refusal;
  }
  if (session === SessionName.REGULAR_MARKET) return null;
  return refusalOf(
    checkOrderTypeInSession(
      { orderType: intent.orderType, timeInForce: intent.sizing === 'AMOUNT' ? 'DAY' : intent.timeInForce },
      { session, regularOpenAt: regularOpenAt(market, at) },
      market,
    ),
  );
}

/** When `market`'s next regular session opens after `at` (for a refusal's message). */
function regularOpenAt(market: Market, at: DateTime): DateTime | null {
  return nextOrderOpen(
    (ms) => (orderSessionAt(market, ms) === SessionName.REGULAR_MARKET ? SessionName.REGULAR_MARKET : null),
    at,
  );
}

function refusalOf(verdict: BrokerVerdict): RiskVerdict | null {
  return verdict.accepted ? null : fromRefusal(verdict);
}

/**
 * Whether a working paper order may trade against a book asked for at `askedAtMs` and matched at
 * `nowMs` (engine clock), as the broker (and the simulator) match orders: a market order, and any
 * order of a KR stock the alternative exchange does not trade (`onNxt` false, from the broker's
 * stock info), only when both times are in its market's regular session (the broker made the book
 * between them), by `calendar` (the paper account's: the broker's, {@link calendarSessionAt}; without
 * it, the broker model's session hours); any other order always (the
 * venue and the auction judge the rest). Before, such an order still working at the close filled
 * against the after-market's books; and, judged by the broker model's hours alone, it filled after
 * the close of a special session the broker declared (15:00 KST, where the table says 15:30).
 */
export function paperOrderMayTrade(
  order: { readonly orderType: string; readonly currency: string },
  askedAtMs: number,
  nowMs: number,
  onNxt: boolean | undefined,
  calendar?: OrderSessionSource,
): boolean {
  const kr = order.currency !== 'USD';
  if (order.orderType !== OrderType.MARKET && !(kr && onNxt === false)) return true;
  const market = kr ? Market.KR : Market.US;
  return (
    calendarSessionAt(calendar, market, askedAtMs) === SessionName.REGULAR_MARKET &&
    calendarSessionAt(calendar, market, nowMs) === SessionName.REGULAR_MARKET
  );
}

/**
 * The order session of `market` at `ms` (null: none) by the broker's own market calendar as last
 * read (the risk module's market view: the calendar its rules judge orders by, special sessions and
 * closures included), else, for an instant it does not tell (not read yet, another day) or with no
 * calendar, by the broker model's session hours.
 */
export function calendarSessionAt(
  calendar: OrderSessionSource | undefined,
  market: Market,
  ms: number,
): SessionName | null {
  const spans = calendar?.orderSessions(market);
  if (spans === undefined || ms < spans.fromMs || ms >= spans.toMs) return orderSessionAt(market, ms);
  for (const span of spans.sessions) if (ms >= span.startMs && ms < span.endMs) return span.name;
  return null;
}
