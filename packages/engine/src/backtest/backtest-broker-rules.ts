/**
 * The broker's rules a backtest applies before its venue, beyond what its bar fill model and
 * ledger already enforce (price grid, price limits, buying power, sellable quantity), so that a
 * strategy refused live is refused in its backtest too: a modify's fields (a US modify changes the
 * price only, a KR one a whole quantity within the rest; an amount order is not modified), the
 * high-value confirmation (an order of
 * 100,000,000 KRW or more needs `confirmHighValue`), the maximum order amount, for KR stocks an
 * open order of the other side on the same stock, and, on minute bars, the session rules by the
 * broker model's session hours and exchange holidays (order hours, for a modify or cancel too;
 * `MARKET` and `CLS` in the regular session only; the US window of amount and fractional orders). On daily bars the session rules are not judged: an
 * order placed on a day's bar is an order for the next open, as paper and live hand a day's bar
 * over at the next regular open. Paper and live judge the same rules in the risk module against
 * the broker's data; the codes and messages are the broker model's in every mode.
 *
 * @module
 */
import {
  checkAmountOrderWindow,
  checkChangeable,
  checkFunds,
  checkHighValue,
  checkLimitPrice,
  checkMaxAmount,
  checkModifyRequest,
  checkOppositePending,
  checkOrderHours,
  checkOrderTypeInSession,
  checkPriceLimits,
  daySessions,
  type HolidayPredicate,
  isAmountOrFractional,
  isSessionDay,
  knownHolidays,
  type Ledger,
  localDay,
  type NamedSpan,
  nextOrderOpen,
  orderSessionAt,
  orderValueKrw,
  type PriceLimits,
  reservedCash,
  reservePrice,
  usRegularSessionAt,
} from '@hoga/broker-model';
import {
  type BrokerRefusal,
  type Clock,
  Decimal,
  decimalOfNumber,
  exactIntOf,
  HIGH_VALUE_ORDER_KRW,
  type Instrument,
  isTerminalOrderState,
  KST_ZONE,
  type Market,
  type OrderIntent,
  SessionName,
  type TradableInstrument,
} from '@hoga/core';
import { DateTime } from 'luxon';
import type { ModifyOrder, OrderCommand } from '../commands/order-commands.js';
import type { FxRates } from '../portfolio/fx-rates.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import { fromRefusal, namingOppositeOwner } from '../risk/broker-rules-check.js';
import { type IntentFields, intentFields } from '../risk/intent-fields.js';
import type { RiskVerdict } from '../risk/risk-gate.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';
import type { BarPriceLimits } from './bar-price-limits.js';

/** What the rules read: the last prices, the USD/KRW rate, the clock and the venue's open orders. */
export interface BacktestBrokerRulesInput {
  readonly marks: MarkBook;
  readonly fx: FxRates;
  readonly clock: Clock;
  readonly venue: Pick<SimulatedVenue<unknown>, 'workingOf' | 'order'> & { readonly ledger: Ledger };
  /** Whether the session rules are judged (minute bars: yes; daily bars: no, see the module documentation). */
  readonly sessionRules: boolean;
  /** The KR price limits of the day an order trades in; none: no price limits are judged. */
  readonly limits?: BarPriceLimits | undefined;
}

/** Judges orders by the broker's rules it can know before the venue (see the module documentation). */
export class BacktestBrokerRules {
  private readonly sessions = { KR: new DaySessions('KR'), US: new DaySessions('US') };

  constructor(private readonly input: BacktestBrokerRulesInput) {}

  /** The first refusal of a new order, or null (anything else passes: the venue judges it). */
  check(command: OrderCommand): RiskVerdict | null {
    if (command.type === 'ModifyOrder') {
      const refusal = this.modifyRefusal(command);
      if (refusal !== null) return refusal;
    }
    if (command.type !== 'SubmitOrder') return this.changeRefusal(command.clientOrderId);
    const intent = command.intent;
    const instrument = intent.instrument;
    const fields = intentFields(intent);
    const last = this.input.marks.get(instrument.symbol);
    const usdKrw = instrument.currency === 'USD' ? this.input.fx.usdKrwAt(this.input.clock.nowMs()) : 1;
    // the broker's order: the price grid and the high-value confirmation (400s), then the session
    // rules, the price limits, the maximum amount, the other side's open order and the funds (422s)
    let limit = fields.price;
    if (limit !== null) {
      const grid = checkLimitPrice(instrument, limit);
      if (!grid.accepted) return fromRefusal(grid);
      // a US price is truncated onto its grid, as the broker and the venue do
      limit = grid.price ?? limit;
    }
    // a market order is valued at the last price (before the symbol's first bar there is none);
    // in numbers first: most orders are far below the threshold, and are not valued in decimals
    const price = fields.price === null ? last : fields.price.toNumber();
    const figures = {
      quantity: fields.quantity?.toNumber() ?? 0,
      amount: fields.orderAmount?.toNumber(),
      price: fields.price === null ? undefined : price,
    };
    const estimate = (figures.amount ?? figures.quantity * (price ?? 0)) * usdKrw;
    const value =
      (price !== undefined || fields.orderAmount !== null) && estimate >= NEAR_HIGH_VALUE
        ? orderValueKrw({
            currency: instrument.currency,
            price: fields.price,
            quantity: fields.quantity,
            orderAmount: fields.orderAmount,
            lastPrice: new Decimal(last ?? 0),
            usdKrw: new Decimal(usdKrw),
          })
        : null;
    if (value !== null) {
      const refusal = refusalOf(checkHighValue(value, intent.confirmHighValue));
      if (refusal !== null) return refusal;
    }
    if (this.input.sessionRules) {
      const refusal = this.sessionRefusal(intent, fields);
      if (refusal !== null) return refusal;
    }
    // the day's limits judge a limit price and a KR market buy's funds (not read otherwise)
    const limits =
      limit !== null || (intent.side === 'BUY' && fields.orderAmount === null)
        ? this.priceLimits(instrument)
        : null;
    if (limit !== null && limits !== null) {
      const refusal = refusalOf(checkPriceLimits(limit, limits));
      if (refusal !== null) return refusal;
    }
    if (value !== null) {
      const refusal = refusalOf(checkMaxAmount(value));
      if (refusal !== null) return refusal;
    }
    if (instrument.market === 'KR') {
      for (const o of this.input.venue.workingOf(instrument.symbol)) {
        if (o.side === intent.side) continue;
        const open = [{ orderId: o.brokerOrderId, symbol: o.symbol, side: o.side }];
        // the rule reads the instrument's market and symbol only
        const verdict = checkOppositePending(instrument as TradableInstrument, intent.side, open);
        // another strategy's order: the refused one is told whose (it sees its own orders only)
        return verdict.accepted
          ? null
          : fromRefusal(namingOppositeOwner(verdict, o.strategyId, intent.strategyId));
      }
    }
    return this.fundsRefusal(instrument, intent, fields, figures, limit, last, limits);
  }

  /**
   * `insufficient-buying-power` when a buy's reservation, as the broker makes it (a limit at its
   * price, a KR market buy at the day's upper limit, a US one 5 % above the last price; with its
   * commission), is over the buying power, or a sell wants more shares than are sellable; null
   * otherwise. A buy clearly inside the buying power is let through in numbers; the rest judged in
   * the ledger's exact figures; the refusal's message is the broker model's.
   */
  private fundsRefusal(
    instrument: Instrument,
    intent: OrderIntent,
    fields: IntentFields,
    figures: OrderFigures,
    limit: Decimal | null,
    last: number | undefined,
    limits: PriceLimits | null,
  ): RiskVerdict | null {
    const ledger = this.input.venue.ledger;
    const { symbol, currency } = instrument;
    if (intent.side === 'SELL') {
      // whole shares in numbers, exactly (a Decimal comparison per sell cost the minute bench a second)
      const wanted = fields.quantity === null ? 0 : exactIntOf(fields.quantity);
      const sellable = ledger.sellableInt(symbol);
      if (Number.isSafeInteger(wanted) && Number.isSafeInteger(sellable)) {
        if (wanted <= sellable) return null;
      } else if (!(fields.quantity ?? ZERO).gt(ledger.sellableQuantity(symbol))) return null;
    } else {
      // in doubles first: 2 % over the estimate covers the commission and the doubles' error, one
      // unit the rounding up (a Decimal reservation per buy cost the minute bench seconds)
      const reserveAt =
        figures.price ??
        (instrument.market === 'KR'
          ? (this.input.limits?.upperOf(instrument) ?? last ?? 0)
          : (last ?? 0) * 1.05);
      const estimate = figures.amount ?? figures.quantity * reserveAt;
      if (estimate * 1.02 + 1 <= ledger.approxBuyingPower(currency)) return null;
    }
    const order = {
      side: intent.side,
      price: limit,
      quantity: fields.quantity,
      orderAmount: fields.orderAmount,
    };
    // a limit order reserves at its price: the last price is not read
    const moment = { lastPrice: limit !== null ? ZERO : decimalOfNumber(last ?? 0), priceLimits: limits };
    if (intent.side === 'BUY') {
      const reserved = reservedCash({
        ...order,
        symbol,
        currency,
        filledQuantity: ZERO,
        filledAmount: ZERO,
        reservePrice: reservePrice(instrument, order, moment),
      });
      if (ledger.affords(currency, reserved)) return null;
    }
    const account = {
      cashBuyingPower: ledger.buyingPower(currency),
      sellableQuantity: ledger.sellableQuantity(symbol),
    };
    return refusalOf(checkFunds(instrument, order, moment, account));
  }

  /** The KR limits of the day an order placed now trades in (null: none, or not known). */
  private priceLimits(instrument: Instrument): PriceLimits | null {
    return this.input.limits?.of(instrument) ?? null;
  }

  /**
   * A modify's refusal by its fields, as the broker checks them before the hours: a US modify
   * changes the price only, a KR one needs a whole quantity within the unfilled rest, an amount
   * order is not modified; then by the replacement's price limits and funds (a buy's new
   * reservation over the buying power with the old one given back). Null when the venue no longer
   * works the order (its answer stands). The close orders' freeze of their last 10 minutes is not
   * judged (no `CLS` expiry here).
   */
  private modifyRefusal(command: ModifyOrder): RiskVerdict | null {
    const order = this.input.venue.order(command.clientOrderId);
    if (order === undefined || isTerminalOrderState(order.state)) return null;
    const request = checkModifyRequest(
      order.instrument,
      { quantity: order.quantity ?? order.filledQuantity, filledQuantity: order.filledQuantity },
      {
        orderType: command.orderType,
        price: command.price ?? null,
        quantity: command.quantity ?? null,
        confirmHighValueOrder: command.confirmHighValue,
      },
    );
    if (!request.accepted) return fromRefusal(request);
    const target = { ...order, expiresAtMs: Number.POSITIVE_INFINITY };
    const changeable = refusalOf(checkChangeable(target, 'modify', this.input.clock.nowMs()));
    if (changeable !== null) return changeable;
    // the broker's trading rules of the replacement: its price against the day's limits, then its
    // funds, on the account without the order it replaces
    const instrument = order.instrument;
    const limits = this.priceLimits(instrument);
    const outside = refusalOf(checkPriceLimits(request.price, limits));
    if (outside !== null || order.side !== 'BUY') return outside;
    const ledger = this.input.venue.ledger;
    const held = ledger.reservation(order.clientOrderId)?.cash ?? ZERO;
    const replacement = {
      side: order.side,
      price: request.price,
      quantity: request.quantity,
      orderAmount: null,
    };
    const last = this.input.marks.get(instrument.symbol);
    const moment = { lastPrice: decimalOfNumber(last ?? 0), priceLimits: limits };
    const needed = reservedCash({
      ...replacement,
      symbol: instrument.symbol,
      currency: instrument.currency,
      filledQuantity: ZERO,
      filledAmount: ZERO,
      reservePrice: reservePrice(instrument, replacement, moment),
    });
    if (ledger.affords(instrument.currency, needed.minus(held))) return null;
    const account = {
      cashBuyingPower: ledger.buyingPower(instrument.currency).plus(held),
      sellableQuantity: ZERO,
    };
    return refusalOf(checkFunds(instrument, replacement, moment, account));
  }

  /**
   * A modify's or cancel's refusal, or null: outside order hours (on minute bars) the broker
   * changes no working order. An order the venue no longer works is left to the venue's answer.
   */
  private changeRefusal(clientOrderId: string): RiskVerdict | null {
    if (!this.input.sessionRules) return null;
    const order = this.input.venue.order(clientOrderId);
    if (order === undefined || isTerminalOrderState(order.state)) return null;
    const market = order.instrument.market;
    const nowMs = this.input.clock.nowMs();
    if (this.sessions[market].at(nowMs) !== null) return null;
    return this.closedRefusal(order.instrument, nowMs);
  }

  /** `order-hours-closed` now, with when orders of the market are taken again. */
  private closedRefusal(instrument: Pick<TradableInstrument, 'market'>, nowMs: number): RiskVerdict | null {
    const at = DateTime.fromMillis(nowMs, { zone: KST_ZONE });
    const nextOpenAt = nextOrderOpen((ms) => orderSessionAt(instrument.market, ms), at);
    return refusalOf(checkOrderHours(instrument, { at, session: null, nextOpenAt }));
  }

  /**
   * The session rules' refusal of a new order now, or null: order hours, the amount-order window
   * (amount and fractional orders), and `MARKET` or `CLS` outside the regular session.
   */
  private sessionRefusal(intent: OrderIntent, fields: IntentFields): RiskVerdict | null {
    const market = intent.instrument.market;
    const nowMs = this.input.clock.nowMs();
    const session = this.sessions[market].at(nowMs);
    if (session === null) return this.closedRefusal(intent.instrument, nowMs);
    if (isAmountOrFractional(fields)) {
      const span = usRegularSessionAt(nowMs);
      const regular =
        span === null
          ? null
          : {
              start: DateTime.fromMillis(span.start, { zone: KST_ZONE }),
              end: DateTime.fromMillis(span.end, { zone: KST_ZONE }),
            };
      const field = fields.orderAmount !== null ? 'orderAmount' : 'quantity';
      // outside a regular session, the message says when the next one opens
      const now = DateTime.fromMillis(nowMs, { zone: KST_ZONE });
      const opensAt = regular === null ? nextOrderOpen(regularOf(market), now) : null;
      const refusal = refusalOf(checkAmountOrderWindow(field, regular, now, opensAt));
      if (refusal !== null) return refusal;
    }
    // most orders end here: nothing below is made for them (a zone lookup or a closure per order
    // cost the minute bench a fifth of its speed)
    if (session === SessionName.REGULAR_MARKET) return null;
    const self = this;
    return refusalOf(
      checkOrderTypeInSession(
        { orderType: intent.orderType, timeInForce: fields.timeInForce ?? 'DAY' },
        // read only for the message of a refusal: worked out then
        {
          session,
          get regularOpenAt() {
            return self.regularOpenAt(market, nowMs);
          },
        },
        market,
      ),
    );
  }

  /** The last answer of {@link regularOpenAt} per market, asked at `at` (the opening at `until`). */
  private readonly opens: Record<string, { at: number; until: number; value: DateTime | null }> = {};

  /**
   * When the regular session opens next after `nowMs`, for a refusal's message: worked out once
   * per market and stretch outside the regular session (a minute backtest refuses the market
   * orders of many symbols at each bar of a pre- or after-market). The answer holds from the time
   * it was asked until that opening: no opening lies between (the clock only moves on).
   */
  private regularOpenAt(market: Market, nowMs: number): DateTime | null {
    const last = this.opens[market];
    if (last !== undefined && (last.at === nowMs || (last.at < nowMs && nowMs < last.until))) {
      return last.value;
    }
    const value = nextOrderOpen(regularOf(market), DateTime.fromMillis(nowMs, { zone: KST_ZONE }));
    this.opens[market] = { at: nowMs, until: value === null ? nowMs : value.toMillis(), value };
    return value;
  }
}

/**
 * A market's order sessions of the day being traded, kept from one order to the next (a backtest's
 * orders come in time order): the session at an instant without building the day anew per order.
 */
class DaySessions {
  private day = Number.NaN;
  private spans: readonly NamedSpan[] = [];
  /** The market's exchange holidays the broker model knows (2026–2027; none outside those years). */
  private readonly holidays: HolidayPredicate;

  constructor(private readonly market: Market) {
    this.holidays = knownHolidays(market);
  }

  /** The order session open at `ms`, or null. */
  at(ms: number): SessionName | null {
    const day = localDay(this.market, ms);
    if (day !== this.day) {
      this.day = day;
      this.spans = isSessionDay(this.market, day, this.holidays) ? daySessions(this.market, day) : [];
    }
    for (const span of this.spans) if (ms >= span.start && ms < span.end) return span.name;
    return null;
  }
}

const ZERO = new Decimal(0);

/** An order's figures in doubles (its limit price, else undefined), for the quick checks. */
interface OrderFigures {
  readonly quantity: number;
  readonly amount: number | undefined;
  readonly price: number | undefined;
}

/** Just under the high-value threshold: an estimate in numbers below it needs no decimal valuation. */
const NEAR_HIGH_VALUE = HIGH_VALUE_ORDER_KRW.toNumber() * 0.999;

function refusalOf(verdict: { readonly accepted: true } | BrokerRefusal): RiskVerdict | null {
  return verdict.accepted ? null : fromRefusal(verdict);
}

/** The regular session at an instant, else null (what {@link nextOrderOpen} looks for). */
function regularOf(market: Market): (ms: number) => SessionName | null {
  return (ms) =>
    orderSessionAt(market, ms) === SessionName.REGULAR_MARKET ? SessionName.REGULAR_MARKET : null;
}
