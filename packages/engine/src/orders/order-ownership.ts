/**
 * Which logical orders an order manager reports on. Several processes may share one store: live
 * runs of different strategy ids (each holds a lease on its ids, `live/run-lease.ts`) and
 * `hoga order`. The broker's lists show every order of the account, so each manager would see the
 * others' orders; the strategy that placed an order hears of it only from the manager of its own
 * run. So an order of a strategy that another live run works is left to that run: its reports are
 * not counted, its lost answers not settled and its missing detail not read here. The orders of
 * this manager's strategies, of strategies no run works (their fills are booked from the store
 * when their strategy starts again), manual ones and those placed elsewhere are its own. A command
 * that `hoga order` is sending (it holds the command's lease) is left to it until it settles or
 * exits: its answer may still come. A lease binds while its process lives: a process the system
 * gave the pid of a crashed holder to is not that holder (`live/run-lease.ts`), so the orders of
 * a strategy whose run crashed are this manager's own again.
 *
 * @module
 */
import type { HogaDatabase } from '@hoga/store';
import { leasedCommands, leasedLiveStrategies } from '../live/run-lease.js';

/** See the module description. */
export class OrderOwnership {
  private readonly mine: ReadonlySet<string>;

  /**
   * @param db - the store (its live leases)
   * @param strategies - the strategy ids this manager's process runs (none: `hoga order`)
   * @param strategyOf - the strategy of a logical order (null: manual with no id, or placed elsewhere)
   */
  constructor(
    private readonly db: HogaDatabase,
    strategies: readonly string[],
    private readonly strategyOf: (clientOrderId: string) => string | null,
  ) {
    this.mine = new Set(strategies);
  }

  /**
   * The strategy ids another live run works now (read from the store each time: read it inside
   * the transaction that counts, so that a run starting meanwhile is seen).
   */
  others(): ReadonlySet<string> {
    const leased = leasedLiveStrategies(this.db);
    for (const id of this.mine) leased.delete(id);
    return leased;
  }

  /** Whether this process runs the strategy `strategyId`. */
  runsHere(strategyId: string | undefined): strategyId is string {
    return strategyId !== undefined && this.mine.has(strategyId);
  }

  /**
   * Whether the strategy `strategyId` is told of an event of its orders that this process makes
   * only at its next start (`untold-events.ts`): a strategy neither this process nor another live
   * run works now (not the manual orders' `manual`, nor an order with no strategy). A running
   * strategy hears of another process's changes from its own run's polls.
   */
  tellsLater(strategyId: string | undefined): boolean {
    if (strategyId === undefined || strategyId === 'manual' || this.mine.has(strategyId)) return false;
    return !this.others().has(strategyId);
  }

  /** Whether the logical order is left to another run (its strategy is among `others`). */
  leaves(clientOrderId: string, others: ReadonlySet<string>): boolean {
    if (others.size === 0) return false;
    const strategy = this.strategyOf(clientOrderId);
    return strategy !== null && others.has(strategy);
  }

  /**
   * The ids of the commands another process (`hoga order`) sends now (read from the store each
   * time: read it after the commands themselves, since a command's lease is taken before it is
   * written).
   */
  inFlight(): ReadonlySet<string> {
    return leasedCommands(this.db);
  }

  /**
   * Whether a command is left to another process: another run's (see {@link OrderOwnership.leaves}),
   * or one that a `hoga order` process is sending (among `inFlight`).
   */
  leavesCommand(
    command: { readonly commandId: string; readonly strategyId: string | null },
    others: ReadonlySet<string>,
    inFlight: ReadonlySet<string>,
  ): boolean {
    return inFlight.has(command.commandId) || (command.strategyId !== null && others.has(command.strategyId));
  }
}
