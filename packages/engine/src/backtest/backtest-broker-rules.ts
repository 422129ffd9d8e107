/**
 * The broker's rules a backtest applies before its venue, beyond what its bar fill model and
 * ledger already enforce (price grid, price limits, buying power, sellable quantity): those that
 * hold whatever the session, so that a strategy refused live is refused in its backtest too —
 * the high-value confirmation (an order of 100,000,000 KRW or more needs `confirmHighValue`), the
 * maximum order amount, and for KR stocks an open order of the other side on the same stock. Paper
 * and live judge the same rules in the risk module against the broker's data; the codes and
 * messages are the broker model's in every mode.
 *
 * @module
 */
import { checkHighValue, checkMaxAmount, checkOppositePending, orderValueKrw } from '@hoga/broker-model';
import {
  type BrokerRefusal,
  type Clock,
  Decimal,
  HIGH_VALUE_ORDER_KRW,
  type TradableInstrument,
} from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { FxRates } from '../portfolio/fx-rates.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import { fromRefusal } from '../risk/broker-rules-check.js';
import { intentFields } from '../risk/intent-fields.js';
import type { RiskVerdict } from '../risk/risk-gate.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';

/** What the rules read: the last prices, the USD/KRW rate, the clock and the venue's open orders. */
export interface BacktestBrokerRulesInput {
  readonly marks: MarkBook;
  readonly fx: FxRates;
  readonly clock: Clock;
  readonly venue: Pick<SimulatedVenue<unknown>, 'workingOf'>;
}

/** Judges new orders by the session-independent rules of the broker (see the module documentation). */
export class BacktestBrokerRules {
  constructor(private readonly input: BacktestBrokerRulesInput) {}

  /** The first refusal of a new order, or null (anything else passes: the venue judges it). */
  check(command: OrderCommand): RiskVerdict | null {
    if (command.type !== 'SubmitOrder') return null;
    const intent = command.intent;
    const instrument = intent.instrument;
    const fields = intentFields(intent);
    const last = this.input.marks.get(instrument.symbol);
    const usdKrw = instrument.currency === 'USD' ? this.input.fx.usdKrwAt(this.input.clock.nowMs()) : 1;
    // a market order is valued at the last price (before the symbol's first bar there is none);
    // in numbers first: most orders are far below the threshold, and are not valued in decimals
    const price = fields.price === null ? last : fields.price.toNumber();
    const estimate =
      (fields.orderAmount?.toNumber() ?? (fields.quantity?.toNumber() ?? 0) * (price ?? 0)) * usdKrw;
    if ((price !== undefined || fields.orderAmount !== null) && estimate >= NEAR_HIGH_VALUE) {
      const value = orderValueKrw({
        currency: instrument.currency,
        price: fields.price,
        quantity: fields.quantity,
        orderAmount: fields.orderAmount,
        lastPrice: new Decimal(last ?? 0),
        usdKrw: new Decimal(usdKrw),
      });
      const refusal =
        refusalOf(checkHighValue(value, intent.confirmHighValue)) ?? refusalOf(checkMaxAmount(value));
      if (refusal !== null) return refusal;
    }
    if (instrument.market !== 'KR') return null;
    for (const o of this.input.venue.workingOf(instrument.symbol)) {
      if (o.side === intent.side) continue;
      const open = [{ orderId: o.brokerOrderId, symbol: o.symbol, side: o.side }];
      // the rule reads the instrument's market and symbol only
      return refusalOf(checkOppositePending(instrument as TradableInstrument, intent.side, open));
    }
    return null;
  }
}

/** Just under the high-value threshold: an estimate in numbers below it needs no decimal valuation. */
const NEAR_HIGH_VALUE = HIGH_VALUE_ORDER_KRW.toNumber() * 0.999;

function refusalOf(verdict: { readonly accepted: true } | BrokerRefusal): RiskVerdict | null {
  return verdict.accepted ? null : fromRefusal(verdict);
}
