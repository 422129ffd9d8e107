/**
 * The account's holdings and cash as a read-only view: the simulated venue's ledger in backtests
 * and paper, the broker's holdings in live.
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

  /** @inheritdoc */
  cash(currency: Currency): Decimal {
    return this.ledger.cash(currency);
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
