/**
 * The broker's rules for a paper order, modify or cancel when the risk module is disabled: no one
 * else judges them in paper (live, the broker does; with the risk module on, its broker rules do),
 * and the paper venue checks only its ledger's funds and shares. They are the risk module's broker
 * rules ({@link checkBrokerRules}: the broker model's `admitOrder`, `admitModify`, `admitCancel`),
 * against the same data the risk module would read — the broker's market data (instrument flags,
 * calendars, price limits, last prices, the rate: {@link BrokerMarketView}, which the risk binding
 * keeps fresh for the run's symbols whether the module is on or off, and the rules read for any
 * other symbol) and the risk module's book of the run's orders (open orders for the KR opposite
 * side, the target of a modify or cancel) — with the broker's codes and messages:
 * order hours, suspension, the KR price limits and tick grid, the US price grid, the high-value
 * confirmation, the maximum amount, the KR opposite side, a modify's fields, a modify or cancel
 * outside order hours or of an order no longer open. Funds are left to the paper venue, which
 * checks its ledger as it takes the order, as it did.
 *
 * Where that data is missing (the broker's calendar or the symbol's market data not read, the
 * target unknown to the book), a new order is judged by the session rules of the broker model's
 * hours alone ({@link paperSessionRefusal}) and the rest is left to the paper venue, as before:
 * with the risk module disabled, paper never refuses an order for data hoga lacks.
 *
 * A new order is judged by the paper venue as it takes it (`SimulatedVenue.judgeOrdersBy`):
 * `OrderSubmitted`, then `OrderRejected` with the broker's code and message, stored REJECTED, as
 * live's broker takes and answers it; a modify or cancel too, once the venue found its order
 * working: `OrderModifyRequested` / `OrderCancelRequested`, then `OrderModifyRejected` /
 * `OrderCancelRejected` with the broker's code and `sent: true`, as live's strategy hears them.
 *
 * Before, the paper venue took them: a KR buy above the day's upper limit rested in paper, and an
 * order the broker refuses as not confirmed was rejected `insufficient-buying-power` (or filled).
 * Then the gate denied a new order (`OrderDenied`): only the code was live's.
 *
 * @module
 */
import { type Clock, Decimal } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { BrokerMarketView } from '../risk/broker-market-view.js';
import { checkBrokerRules, type FundsView } from '../risk/broker-rules-check.js';
import type { RiskGate, RiskVerdict } from '../risk/risk-gate.js';
import { riskSubjectOf } from '../risk/risk-subject.js';
import type { OpenOrderView, RiskOrder, RiskSubject } from '../risk/risk-types.js';
import { paperSessionRefusal } from './paper-session-rules.js';

const ZERO = new Decimal(0);
const ENOUGH = new Decimal(Number.POSITIVE_INFINITY);
/** The broker's rules do not read an order's KRW value: 0. */
const NO_VALUE = (): Decimal => ZERO;

/** The denials of missing data: paper, with the risk module off, leaves the order to its venue. */
const MISSING_DATA = new Set(['risk-market-data-missing', 'risk-account-data-missing']);

/**
 * Buying power and sellable quantity as the rules read them: enough for any order. The paper venue
 * judges funds itself, against its ledger, when it takes the order (`insufficient-buying-power`
 * as `OrderRejected`, as live's broker answers it), as before.
 */
const VENUE_FUNDS: FundsView = {
  cashBuyingPower: () => ENOUGH,
  sellableQuantity: () => ENOUGH,
};

/** The run's orders as the risk module's book knows them. */
export interface PaperRulesOrders {
  order(clientOrderId: string): RiskOrder | undefined;
  openOrders(): readonly OpenOrderView[];
}

/** What {@link PaperBrokerRules} reads. */
export interface PaperBrokerRulesOptions {
  /** The risk module's view of the broker's market data (undefined: none, session rules only). */
  readonly market: Pick<BrokerMarketView, 'instrument' | 'moment' | 'missing' | 'prepare'> | undefined;
  /** The risk module's book. */
  readonly orders: PaperRulesOrders;
  readonly clock: Pick<Clock, 'now' | 'nowMs'>;
}

/** See the module documentation. */
export class PaperBrokerRules implements Required<RiskGate> {
  constructor(private readonly o: PaperBrokerRulesOptions) {}

  /** Reads the broker's market data of the command's symbol when older than the view keeps it. */
  prepare(command: OrderCommand): Promise<void> | undefined {
    const symbol =
      command.type === 'SubmitOrder'
        ? command.intent.instrument.symbol
        : this.o.orders.order(command.clientOrderId)?.symbol;
    // a read that fails leaves the view without the data: the session rules judge then
    return symbol === undefined ? undefined : this.o.market?.prepare(symbol).catch(() => undefined);
  }

  /** The broker's refusal of `command`, or accepted (see the module). */
  check(command: OrderCommand): RiskVerdict {
    const subject = this.subject(command);
    const market = this.o.market;
    const verdict =
      subject === undefined || market === undefined
        ? undefined
        : checkBrokerRules(subject, {
            market,
            funds: VENUE_FUNDS,
            openOrders: this.o.orders.openOrders(),
            target: subject.action === 'create' ? undefined : this.o.orders.order(subject.clientOrderId),
            at: this.o.clock.now(),
          });
    if (verdict !== undefined && (verdict.accepted || !MISSING_DATA.has(verdict.code))) return verdict;
    const session =
      command.type === 'SubmitOrder' ? paperSessionRefusal(command.intent, this.o.clock.nowMs()) : null;
    return session ?? { accepted: true };
  }

  /**
   * The command as the broker's rules read it (as the risk engine resolves it; its KRW value,
   * which they do not read, left at 0), or undefined for a modify or cancel of an order the book
   * does not know.
   */
  private subject(command: OrderCommand): RiskSubject | undefined {
    const target = command.type === 'SubmitOrder' ? undefined : this.o.orders.order(command.clientOrderId);
    return riskSubjectOf(command, target, NO_VALUE, ZERO);
  }
}
