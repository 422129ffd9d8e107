/**
 * A paper run's budget beside its paper account: `--cash-krw` and `--cash-usd` are the strategies'
 * cash (their `ctx.cash`) in every run, while the paper account opens with them at its first run
 * only and keeps what the runs leave it. A later run given more than the account holds gave the
 * strategies a budget the account could not cover, without a word: their buys past the account's
 * cash were refused `insufficient-buying-power` (seen: `ctx.cash` 19,460,000 KRW, the account
 * 9,460,000 KRW). Said once at the start instead.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';
import type { LiveRunHandle } from '@hoga/engine';
import { formatMoney } from '../output/table.js';

/** An amount as the currency's flag takes it (no grouping, no sign; KRW whole, USD to the cent), rounded down. */
function flagAmount(amount: Decimal, currency: Currency): string {
  return amount.toFixed(currency === 'USD' ? 2 : 0, Decimal.ROUND_DOWN);
}

/** An amount as the run's start line shows it (`10,000,000 KRW`, `$10,000.00`). */
function money(amount: Decimal, currency: Currency): string {
  return currency === 'USD' ? formatMoney(amount, currency) : `${formatMoney(amount, currency)} ${currency}`;
}

/**
 * The warning for one currency, or null when the account holds what the strategies have.
 *
 * @param strategies - the strategies' cash now (the flag's, with their earlier paper fills booked)
 * @param account - the paper account's cash now
 * @param flag - the flag's amount (`--cash-krw`, `--cash-usd`)
 */
export function paperCashWarning(
  currency: Currency,
  strategies: Decimal,
  account: Decimal,
  flag: Decimal,
): string | null {
  if (!strategies.gt(account)) return null;
  const name = currency === 'USD' ? '--cash-usd' : '--cash-krw';
  // the flag less the strategies' excess: the budget their fills leave at what the account holds
  const fits = flag.minus(strategies.minus(account));
  const smaller = fits.gt(0) ? `${name} ${flagAmount(fits, currency)} or less` : `a smaller ${name}`;
  const fills = strategies.eq(flag) ? '' : ` (${name} with their earlier paper fills)`;
  return (
    `hoga: warning: the strategies' cash ${money(strategies, currency)}${fills} is more than the paper account ` +
    `holds (${money(account, currency)}): their buys past it are refused insufficient-buying-power; ` +
    `run with ${smaller}, or give the run a fresh paper account in a store of its own (--db FILE)`
  );
}

/**
 * The warnings of a paper run just started, a line each (none in live, none when the account holds
 * what the strategies have).
 *
 * @param run - the started run
 * @param flags - the run's cash (`--cash-krw`, `--cash-usd`)
 */
export function paperCashWarnings(
  run: LiveRunHandle,
  flags: { readonly KRW: Decimal; readonly USD: Decimal },
): string[] {
  const lines: string[] = [];
  for (const currency of ['KRW', 'USD'] as const) {
    const account = run.paperCash(currency);
    if (account === null) continue;
    const portfolio = run.runtime.portfolio;
    let strategies = new Decimal(0);
    for (const id of portfolio.strategies()) strategies = strategies.plus(portfolio.book(id).cash(currency));
    const line = paperCashWarning(currency, strategies, account, flags[currency]);
    if (line !== null) lines.push(line);
  }
  return lines;
}
