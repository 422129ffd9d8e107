/**
 * The venue a live or paper run sends its commands to, and the account's books beside it: paper,
 * the paper account (the broker model's simulated venue over the paper ledger kept in the store,
 * see {@link PaperAccount}); live, the order manager with its {@link LiveVenue}, and the broker's
 * account ({@link BrokerAccount}).
 *
 * @module
 */
import type { Ledger } from '@hoga/broker-model';
import { OrderManager } from '../orders/order-manager.js';
import { LedgerAccountView } from '../portfolio/account-view.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import { openOrdersReservedCash } from '../store/reserved-cash.js';
import type { AccountView } from '../strategy/strategy-context.js';
import type { ExecutionVenue } from '../venue/execution-venue.js';
import { BrokerAccount } from './broker-account.js';
import { LiveVenue } from './live-venue.js';
import { PaperAccount } from './paper-account.js';
import type { LiveRunOptions } from './run-live.js';

/** The venue of a run's mode and what stands behind it. */
export interface ModeVenue {
  /** Where the runtime sends commands: the live venue, or the paper account's simulated venue. */
  readonly venue: ExecutionVenue;
  /** The account the strategies see (`ctx.account`): the paper ledger's, or (live) the broker's. */
  readonly account: AccountView;
  /** Live: the broker's account, read again as the run goes (start it, dispose it); null in paper. */
  readonly brokerAccount: BrokerAccount | null;
  /** Paper: the paper ledger; null in live. */
  readonly ledger?: Ledger;
  /** Live: the order manager; null in paper. */
  readonly manager: OrderManager | null;
  /** Live: the venue over the order manager (not polling before its `start()`); null in paper. */
  readonly liveVenue: LiveVenue | null;
  /** Paper: the paper account; null in live. */
  readonly paperAccount: PaperAccount | null;
}

/**
 * Binds the venue of the run's mode: paper opens the paper account; live makes the order manager
 * (its alerts to `onAlert`) and the live venue over it, and reads the broker's holdings.
 *
 * @param o - the run's options
 * @param marks - the run's last prices (the paper venue's)
 * @param onPollSuccess - called after each successful order poll (live)
 */
export async function bindModeVenue(
  o: LiveRunOptions,
  marks: MarkBook,
  onPollSuccess: () => void,
): Promise<ModeVenue> {
  if (o.settings.mode === 'paper') {
    const paperAccount = await PaperAccount.open(o, marks);
    return {
      venue: paperAccount.venue,
      account: new LedgerAccountView(paperAccount.ledger),
      brokerAccount: null,
      ledger: paperAccount.ledger,
      manager: null,
      liveVenue: null,
      paperAccount,
    };
  }
  const strategies = o.strategies.map((s) => s.id ?? s.strategyClass.name);
  const manager = new OrderManager(o.client, o.db, o.clock, {
    ...o.orderManager,
    // the orders of strategies other live runs on the store work are left to those runs
    strategies,
    onCheckpointError: (e) => o.onError?.(e, 'store-checkpoint'),
  });
  const liveVenue = new LiveVenue(manager, {
    ...(o.pollIntervalMs === undefined ? {} : { pollIntervalMs: o.pollIntervalMs }),
    onPollError: (e) => o.onError?.(e, 'order-poll'),
    onPollSuccess,
  });
  if (o.onAlert !== undefined) manager.alerts$.subscribe(o.onAlert);
  const account = await BrokerAccount.open(o.client, (e) => o.onError?.(e, 'account'), o.accountRefreshMs);
  const own = new Set(strategies);
  account.follow({
    events$: liveVenue.events$,
    polls: manager,
    reserved: () => openOrdersReservedCash(o.db, own),
  });
  return { venue: liveVenue, account, brokerAccount: account, manager, liveVenue, paperAccount: null };
}
