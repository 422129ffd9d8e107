/**
 * The account's holdings and cash as a read-only view: the simulated venue's ledger in backtests
 * and paper, the broker's holdings in live. The cash is the cash buying power, as live reads it
 * from the broker: the cash less what the open buys hold back. Before, backtests and paper answered
 * the ledger's whole cash, a resting buy's included (127,620 KRW more than live for a limit buy of 2
 * at 63,800).
 *
 * @module
 */
import type { Ledger } from '@hoga/broker-model';
import type { Currency, Decimal } from '@hoga/core';
import type { AccountHolding, AccountView } from '../strategy/strategy-context.js';

/** Token of the account view (`AccountView` in the strategy API). */
export const AccountViewToken = Symbol.for('hoga.engine.AccountView');

/** The account as a ledger keeps it. */
export class LedgerAccountView implements AccountView {
  /** @param ledger - the account's books */
  constructor(private readonly ledger: Ledger) {}

  /** The cash buying power: the cash less what the open buys hold back. */
  cash(currency: Currency): Decimal {
    return this.ledger.buyingPower(currency);
  }

  /** @inheritdoc */
  holdings(): readonly AccountHolding[] {
    return holdingsOf(this.ledger);
  }
}

/** A ledger's holdings as the strategy API lists them. */
export function holdingsOf(ledger: Ledger): readonly AccountHolding[] {
  return [...ledger.holdings()].map(([symbol, h]) => ({
    symbol,
    quantity: h.quantity,
    averagePrice: h.averagePrice,
  }));
}
