/**
 * The ledger a paper run opens with: the one the last paper run saved, else the configured cash,
 * else (with `paperFromAccount`) a copy of the real account's cash and holdings.
 *
 * @module
 */
import { Ledger, type LedgerSnapshot } from '@hoga/broker-model';
import { PAPER_STATE_ID } from './paper-store.js';
import type { LiveRunOptions } from './run-live.js';

/**
 * Opens the paper ledger (see the module documentation). A saved ledger is kept whatever
 * `paperFromAccount` says (its open orders hold its cash and shares, and the strategies' stored
 * positions were booked on it): a warning says so (before, not a word).
 *
 * @param o - the run's store, broker, log and settings
 */
export async function openPaperLedger(
  o: Pick<LiveRunOptions, 'db' | 'client' | 'logger' | 'settings' | 'paperFromAccount'>,
): Promise<Ledger> {
  const saved = o.db.strategyState.get(PAPER_STATE_ID, 'ledger') as LedgerSnapshot | undefined;
  if (saved !== undefined) {
    const ledger = Ledger.fromSnapshot(saved);
    if (o.paperFromAccount === true) o.logger.warn(fromAccountIgnored(ledger));
    return ledger;
  }
  if (o.paperFromAccount !== true) return new Ledger(o.settings.cash);
  const [holdings, krw, usd] = await Promise.all([
    o.client.getHoldings(),
    o.client.getBuyingPower('KRW'),
    o.client.getBuyingPower('USD'),
  ]);
  return new Ledger(
    { KRW: krw.cashBuyingPower, USD: usd.cashBuyingPower },
    new Map(
      holdings.items.map((i) => [i.symbol, { quantity: i.quantity, averagePrice: i.averagePurchasePrice }]),
    ),
  );
}

/** Why `paperFromAccount` is not followed on a store that holds a paper ledger (`ledger`), and what to do. */
function fromAccountIgnored(ledger: Ledger): string {
  const holdings = ledger.holdings().size;
  const held = `${ledger.cash('KRW').toFixed()} KRW, ${ledger.cash('USD').toFixed()} USD, ${holdings} holding${holdings === 1 ? '' : 's'}`;
  return (
    `warning: --paper-from-account is ignored: the store already holds a paper account (${held}), ` +
    'which this run goes on with, as an earlier paper run left it; for a fresh copy of the real ' +
    "account's cash and holdings, give the run a store of its own (--db FILE)"
  );
}
