/**
 * The shape of one row of the broker's rule-case table: an order (or a modify or cancel of an open
 * order), an account, a market moment, and the verdict the broker gives. Every value is plain data
 * (decimal strings, ISO times), so the same rows drive the model's unit tests, the simulator's HTTP
 * tests and the engine's risk tests.
 *
 * @module
 */
import type { BrokerErrorCode, Currency, Market, SecurityType, SessionName, TradingFlags } from '@hoga/core';

/** An order as the create request carries it. */
export interface RuleCaseOrder {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly timeInForce?: 'DAY' | 'CLS';
  readonly quantity?: string;
  readonly price?: string;
  readonly orderAmount?: string;
  readonly confirmHighValueOrder?: boolean;
}

/** An open order the account holds before the case (a limit order, placed with confirmation). */
export interface RuleCaseOpenOrder {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT';
  readonly timeInForce?: 'DAY' | 'CLS';
  readonly quantity: string;
  readonly price: string;
}

/** The account before the case: cash, holdings and open orders. */
export interface RuleCaseAccount {
  readonly cash: { readonly KRW: string; readonly USD: string };
  /** Quantity held per symbol. */
  readonly holdings: Readonly<Record<string, string>>;
  readonly openOrders: readonly RuleCaseOpenOrder[];
}

/** The instrument with its trading flags. */
export interface RuleCaseInstrument {
  readonly symbol: string;
  readonly market: Market;
  readonly currency: Currency;
  readonly securityType: SecurityType;
  readonly flags: TradingFlags;
}

/** The market when the order is sent. */
export interface RuleCaseMoment {
  /** ISO time with offset (KST). */
  readonly at: string;
  /** The order session of the instrument's market at `at`, or null when orders are not accepted. */
  readonly session: SessionName | null;
  /** The instrument's last price. */
  readonly lastPrice: string;
  /** KR: the day's reference price (the limits are ±30% of it); null for US. */
  readonly referencePrice: string | null;
  /** KRW per USD at the display rate. */
  readonly usdKrw: string;
  /** The US regular session containing `at` (ISO times), or null. */
  readonly usRegularHours: { readonly start: string; readonly end: string } | null;
}

/** Where the target of a modify or cancel stands when the request comes. */
export type RuleCaseTargetStatus = 'PENDING' | 'FILLED' | 'CANCELED' | 'REPLACED';

/** What the case does. */
export type RuleCaseAction =
  | { readonly kind: 'create'; readonly order: RuleCaseOrder }
  | {
      readonly kind: 'modify';
      /** The target is the account's first open order, in this state. */
      readonly targetStatus: RuleCaseTargetStatus;
      readonly request: {
        readonly orderType: 'LIMIT' | 'MARKET';
        readonly price?: string;
        readonly quantity?: string;
        readonly confirmHighValueOrder?: boolean;
      };
    }
  | { readonly kind: 'cancel'; readonly targetStatus: RuleCaseTargetStatus };

/** One row of the table. */
export interface RuleCase {
  /** Stable id, e.g. `R07` (docs/broker-rules.md refers to it). */
  readonly id: string;
  /** The rule under test (its code, or the name of an ordering rule). */
  readonly rule: string;
  /** What the row shows, in words. */
  readonly description: string;
  readonly instrument: RuleCaseInstrument;
  readonly account: RuleCaseAccount;
  readonly moment: RuleCaseMoment;
  /** When the open orders were placed, if not at `moment.at` (ISO); the clock then moves to `moment.at`. */
  readonly setupAt?: string;
  readonly action: RuleCaseAction;
  /** `accepted`, or the broker's error code. */
  readonly expected: 'accepted' | BrokerErrorCode;
}
