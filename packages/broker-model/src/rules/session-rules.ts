/**
 * The rules about when and where an order may trade: order hours, suspension, the prerequisite,
 * the alternative exchange (NXT) outside the regular session, the amount-order window, and the
 * order types of the extended sessions.
 *
 * @module
 */
import {
  ACCEPTED,
  AMOUNT_ORDER_CUTOFF_MS,
  type BrokerVerdict,
  formatKst,
  KST_ZONE,
  NEW_YORK_ZONE,
  refuse,
  SessionName,
  type TradableInstrument,
} from '@hoga/core';
import { DateTime } from 'luxon';
import type { MarketMoment, OrderRequest, SessionHours } from './rule-inputs.js';

/** How far ahead `retryAfterAt` is looked for (a long holiday weekend fits). */
const NEXT_OPEN_HORIZON_MS = 8 * 24 * 60 * 60 * 1000;
/** Coarse scan step: every session lasts longer than this. */
const COARSE_STEP_MS = 15 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/**
 * The first whole minute from `from` at which orders are accepted again (sessions start on whole
 * minutes), or null beyond 8 days: a coarse scan every 15 minutes, then minute by minute back to
 * the opening.
 *
 * @param sessionAt - the order session open at an epoch ms, or null (one market's calendar)
 * @param from - where to start; the answer keeps its zone
 */
export function nextOrderOpen(
  sessionAt: (ms: number) => SessionName | null,
  from: DateTime,
): DateTime | null {
  const zone = from.zone;
  const isOpen = (ms: number) => sessionAt(ms) !== null;
  const startMs = Math.ceil(from.toMillis() / MINUTE_MS) * MINUTE_MS;
  for (let ms = startMs; ms - startMs <= NEXT_OPEN_HORIZON_MS; ms += COARSE_STEP_MS) {
    if (!isOpen(ms)) continue;
    let open = ms;
    while (open - MINUTE_MS >= startMs && isOpen(open - MINUTE_MS)) open -= MINUTE_MS;
    return DateTime.fromMillis(open, { zone });
  }
  return null;
}

/**
 * The last opening {@link describeOpening} wrote: a minute backtest refuses the market orders of
 * many symbols at one bar, each message naming the same opening (luxon's formatting of it cost
 * more than the rest of the order's checks).
 */
let lastOpening: { market: string; ms: number; text: string } | null = null;

/**
 * When a market's orders are taken again, for a message: the KST date and time with the weekday,
 * and for US the New York date and time beside it (`2026-11-30 10:00 KST (Mon) = 2026-11-29 20:00
 * New York (Sun)`).
 *
 * @param market - KR or US
 * @param at - the instant
 */
export function describeOpening(market: TradableInstrument['market'], at: DateTime): string {
  const ms = at.toMillis();
  const last = lastOpening;
  if (last !== null && last.ms === ms && last.market === market) return last.text;
  const text = describeMoment(market, at);
  lastOpening = { market, ms, text };
  return text;
}

/**
 * An instant for a message, in the form of {@link describeOpening} (`2026-11-28 10:00 KST (Sat)`,
 * and for US `… = 2026-11-27 20:00 New York (Fri)`), uncached.
 *
 * @param market - KR or US
 * @param at - the instant
 */
function describeMoment(market: TradableInstrument['market'], at: DateTime): string {
  const kst = at.setZone(KST_ZONE).toFormat("yyyy-MM-dd HH:mm 'KST' (ccc)");
  return market === 'KR'
    ? kst
    : `${kst} = ${at.setZone(NEW_YORK_ZONE).toFormat("yyyy-MM-dd HH:mm 'New York' (ccc)")}`;
}

/**
 * 422 `order-hours-closed` when no order session of the instrument's market is open (create, modify
 * and cancel), with `data.retryAfterAt` (KST) when the next opening is known; the message says it
 * too (`KR orders are not accepted at 2026-11-28 10:00 KST (Sat); they are taken again from
 * 2026-11-30 08:00 KST (Mon)`).
 */
export function checkOrderHours(
  instrument: Pick<TradableInstrument, 'market'>,
  moment: Pick<MarketMoment, 'at' | 'session' | 'nextOpenAt'>,
): BrokerVerdict {
  if (moment.session !== null) return ACCEPTED;
  const next = moment.nextOpenAt;
  const closed = `${instrument.market} orders are not accepted at ${describeMoment(instrument.market, moment.at)}`;
  return next === null
    ? refuse('order-hours-closed', `${closed}; when they are taken again is not known`)
    : refuse(
        'order-hours-closed',
        `${closed}; they are taken again from ${describeOpening(instrument.market, next)}`,
        { retryAfterAt: formatKst(next) },
      );
}

/**
 * 422 `stock-restricted` when trading is suspended where the order would trade: on the main
 * exchange (KRX), or on NXT in the NXT-only sessions (pre- and after-market).
 */
export function checkNotSuspended(instrument: TradableInstrument, moment: MarketMoment): BrokerVerdict {
  const { flags } = instrument;
  const nxtOnly = moment.session !== null && moment.session !== SessionName.REGULAR_MARKET;
  if (flags.krxSuspended || (nxtOnly && instrument.market === 'KR' && flags.nxtSuspended === true)) {
    return refuse('stock-restricted', `Trading in ${instrument.symbol} is suspended`);
  }
  return ACCEPTED;
}

/** 422 `prerequisite-required` when the instrument needs a prerequisite the account has not completed. */
export function checkPrerequisite(instrument: TradableInstrument): BrokerVerdict {
  if (!instrument.flags.prerequisiteRequired) return ACCEPTED;
  return refuse(
    'prerequisite-required',
    `Orders in ${instrument.symbol} need the prerequisite (risk notice) completed in the brokerage app`,
  );
}

/**
 * 422 `market-not-supported-for-stock` for a KR stock that NXT does not trade, outside the regular
 * session (the pre- and after-market are NXT sessions).
 */
export function checkMarketSupported(instrument: TradableInstrument, moment: MarketMoment): BrokerVerdict {
  if (instrument.market !== 'KR' || instrument.flags.nxtSupported) return ACCEPTED;
  if (moment.session === null || moment.session === SessionName.REGULAR_MARKET) return ACCEPTED;
  return refuse(
    'market-not-supported-for-stock',
    `${instrument.symbol} is not traded on the alternative exchange outside the regular session`,
  );
}

/** Whether an order is an amount order or has a fractional quantity. */
export function isAmountOrFractional(request: Pick<OrderRequest, 'orderAmount' | 'quantity'>): boolean {
  return request.orderAmount !== null || (request.quantity !== null && !request.quantity.isInteger());
}

/**
 * 422 `amount-order-outside-regular-hours` for an amount or fractional order outside [US regular
 * start, end − 1 h); `data = {field, regularHours}` (the hours only while a regular session runs).
 *
 * @param field - the field that made it one (`orderAmount` or `quantity`)
 * @param regular - the US regular session containing `at`, or null
 * @param at - the instant
 * @param opensAt - when the next US regular session starts, if known (for the message; before it)
 */
export function checkAmountOrderWindow(
  field: string,
  regular: SessionHours | null,
  at: DateTime,
  opensAt?: DateTime | null,
): BrokerVerdict {
  const nowMs = at.toMillis();
  if (
    regular !== null &&
    nowMs >= regular.start.toMillis() &&
    nowMs < regular.end.toMillis() - AMOUNT_ORDER_CUTOFF_MS
  ) {
    return ACCEPTED;
  }
  const data: Record<string, unknown> = { field };
  if (regular) data.regularHours = { start: regular.start.toISO(), end: regular.end.toISO() };
  let opens = '';
  if (regular !== null && nowMs >= regular.start.toMillis()) {
    // in the session's last hour: when the window closed
    opens = `; today they stopped at ${describeOpening('US', regular.end.minus(AMOUNT_ORDER_CUTOFF_MS))}`;
  } else if (opensAt != null && opensAt > at) {
    opens = `; the next regular session opens at ${describeOpening('US', opensAt)}`;
  }
  return refuse(
    'amount-order-outside-regular-hours',
    `Amount and fractional orders are accepted from the US regular-session start until one hour before its end${opens}`,
    data,
  );
}

/**
 * 422 `order-type-not-allowed`: `MARKET` outside the regular session of its market, `CLS` outside
 * the US regular session; `data = {field, session}`. The message says when the regular session
 * opens when the moment knows (`regularOpenAt`).
 *
 * @param market - the instrument's market (the time zones of that message)
 */
export function checkOrderTypeInSession(
  request: Pick<OrderRequest, 'orderType' | 'timeInForce'>,
  moment: Pick<MarketMoment, 'session' | 'regularOpenAt'>,
  market?: TradableInstrument['market'],
): BrokerVerdict {
  const session = moment.session;
  if (session === null || session === SessionName.REGULAR_MARKET) return ACCEPTED;
  // the opening is worked out for a refusal's message only (a limit order outside the regular
  // session is accepted without it)
  if (request.orderType !== 'MARKET' && request.timeInForce !== 'CLS') return ACCEPTED;
  const opens =
    moment.regularOpenAt == null || market === undefined
      ? ''
      : `; the regular session opens at ${describeOpening(market, moment.regularOpenAt)}`;
  if (request.orderType === 'MARKET') {
    return refuse(
      'order-type-not-allowed',
      `MARKET orders are accepted in the regular session only${opens}`,
      {
        field: 'orderType',
        session,
      },
    );
  }
  return refuse('order-type-not-allowed', `CLS orders are accepted in the US regular session only${opens}`, {
    field: 'timeInForce',
    session,
  });
}
