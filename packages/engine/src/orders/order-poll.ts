/**
 * One order poll of the order manager: the open orders, the newest closed pages since the last
 * poll and the detail of owned open orders that neither list showed (those of a logical order the
 * lists show another broker order of, and a few more per poll, in turn), their reports counted in
 * one store transaction, then a check of every command whose answer was lost, and
 * of the positions against the holdings (every `positionCheckMs`, and while a symbol is barred, the
 * barred ones every `barredRecheckMs`). The orders and commands of strategies another live run
 * works are left to that run ({@link OrderOwnership}).
 *
 * @module
 */
import {
  isOlderReport,
  NotFoundError,
  type OrderRecord,
  pollOrderSnapshots,
  progressOf,
} from '@hoga/connector';
import type { CommandResolver } from './command-resolver.js';
import type { OrderManager } from './order-manager.js';
import { POLL } from './order-manager-options.js';
import { CommandStatus, type StoredExecution } from './order-manager-store.js';
import type { OrderOwnership } from './order-ownership.js';
import { RunningPositionCheck } from './running-position-check.js';

/** See the module description. */
export class OrderPoller {
  private detailCursor = 0;
  /** Owned open broker orders whose detail answered 404: since when, and how many reads. */
  private readonly notFound = new Map<string, { since: number; reads: number }>();
  /**
   * When this poller's last complete poll started: the next one reads the orders closed since. The
   * stored `last_poll_at`, which every process sharing the store writes, is read at the first poll
   * only (after a start): another run's poll leaves this run's orders alone, so it must not move
   * where this one reads from.
   */
  private lastPollAt: number | null = null;
  /** The running comparison of the positions with the holdings. */
  private readonly positions: RunningPositionCheck;

  /**
   * @param m - the order manager
   * @param resolver - settles commands whose answer was lost
   */
  constructor(
    private readonly m: OrderManager,
    private readonly resolver: CommandResolver,
  ) {
    this.positions = new RunningPositionCheck(m);
  }

  /** One poll (see {@link OrderManager.pollOnce}); answers whether it read every list it meant to. */
  async poll(maxClosedPages: number): Promise<boolean> {
    const startedAt = this.m.clock.nowMs();
    const last = this.lastPollAt ?? Number(this.m.store.meta('last_poll_at') ?? startedAt);
    const since = last - this.m.options.skewMs;
    const snapshot = await pollOrderSnapshots(this.m.gateway, { closedSinceMs: since, maxClosedPages }, POLL);
    const seen = newestReports([...snapshot.open, ...snapshot.closed]);
    // commands whose answer (or rows) the store could not take are stored first: their orders are
    // then theirs to look for, not orders from another channel
    this.m.markUnstored();
    const ownership = this.m.ownership;
    const others = ownership.others();
    // the details read with the lists, in one batch: an original REPLACED since the last poll (on
    // no list once older than the closed pages) is counted with its replacement, and before it
    const details = await this.readMissing(seen, ownership, others);
    this.m.applyRecords([...seen.values(), ...details.records]);
    if (details.failure !== null) throw details.failure.error;
    this.resolver.remember(seen.values());
    // Commands being sent by this process wait for their answer; the rest (lost answers, and
    // commands a crash interrupted) are looked for, but those another run is sending or looks for,
    // and those a `hoga order` process still sends.
    const unresolved = this.m.store.unresolvedCommands();
    const inFlight = ownership.inFlight();
    for (const stored of unresolved) {
      if (stored.status === CommandStatus.SENDING && this.m.orphaned(stored, others, inFlight)) {
        // its process is gone (a `hoga order` killed while sending): interrupted, as a start
        // finds such a command (before, it stayed `sending` and its order SUBMITTED until the
        // next start, though the broker held the order)
        if (!this.m.store.interruptIfSending(stored.commandId, this.m.clock.nowMs())) continue;
        const settled = this.m.store.command(stored.commandId);
        if (settled !== null) await this.resolver.resolve(settled);
      } else if (
        stored.status === CommandStatus.AMBIGUOUS &&
        !ownership.leavesCommand(stored, others, inFlight)
      )
        await this.resolver.resolve(stored);
    }
    if (snapshot.complete) {
      this.lastPollAt = startedAt;
      this.m.store.setMeta('last_poll_at', String(startedAt));
    }
    if (snapshot.complete) await this.positions.afterCompletePoll(seen);
    await this.m.recheckBarred();
    return snapshot.complete;
  }

  /**
   * Reads the detail of owned open orders that neither list showed: every one of a logical order
   * another broker order of which the lists show (an original `REPLACED` since, whose replacement
   * is listed: its last fills are counted before the replacement's; a modify made since the last
   * poll, so a few at most), then `maxDetailReads` of the rest, in turn. One the broker answers 404
   * for in `minChecks` reads over at least `unknownAfterMs` is ended
   * ({@link OrderReports.endMissing}): a single 404 may be a detail read that lags a create. A read
   * that fails otherwise stops the reads: what was read is counted, then the poll fails with it.
   */
  private async readMissing(
    seen: ReadonlyMap<string, OrderRecord>,
    ownership: OrderOwnership,
    others: ReadonlySet<string>,
  ): Promise<{ records: OrderRecord[]; failure: { error: unknown } | null }> {
    const records: OrderRecord[] = [];
    const missing = this.m.store
      .openExecutions()
      .filter((e) => !seen.has(e.brokerOrderId) && !ownership.leaves(e.clientOrderId, others));
    for (const id of this.notFound.keys()) if (seen.has(id)) this.notFound.delete(id);
    if (missing.length === 0) return { records, failure: null };
    const listed = new Set(
      [...this.m.store.executionsById([...seen.keys()]).values()].map((e) => e.clientOrderId),
    );
    const chained = missing.filter((e) => listed.has(e.clientOrderId));
    const rest = missing.filter((e) => !listed.has(e.clientOrderId));
    const turn = Math.min(rest.length, this.m.options.maxDetailReads);
    const reads = [
      ...chained,
      ...Array.from(
        { length: turn },
        (_, i) => rest[(this.detailCursor + i) % rest.length] as StoredExecution,
      ),
    ];
    this.detailCursor += turn;
    for (const execution of reads) {
      try {
        records.push(await this.m.gateway.getOrder(execution.brokerOrderId, POLL));
        this.notFound.delete(execution.brokerOrderId);
      } catch (error) {
        if (!(error instanceof NotFoundError)) return { records, failure: { error } };
        this.noteNotFound(execution);
      }
    }
    return { records, failure: null };
  }

  private noteNotFound(execution: StoredExecution): void {
    const now = this.m.clock.nowMs();
    const id = execution.brokerOrderId;
    const seen = this.notFound.get(id) ?? { since: now, reads: 0 };
    seen.reads++;
    this.notFound.set(id, seen);
    const { minChecks, unknownAfterMs } = this.m.options;
    if (seen.reads < minChecks || now - seen.since < unknownAfterMs) return;
    this.notFound.delete(id);
    this.m.endMissing(execution);
  }
}

/**
 * The reports of a poll's lists by broker order id, one per order: of two reports of one order (the
 * OPEN list read before the CLOSED pages, a row the history repeats, on one page or across two),
 * the later one, but not when it is older than the other (`isOlderReport`: less filled, or working
 * where the other showed the order ended). Before, the last one listed was kept whatever it said:
 * a history that listed an older copy of a filled order after the newer one left the fill uncounted
 * by every poll that read both, until the order aged out of the closed pages the polls read and its
 * detail was read (`hostile-broker.int.test.ts`).
 *
 * @param reports - the OPEN list, then the CLOSED pages, as read
 */
export function newestReports(reports: readonly OrderRecord[]): Map<string, OrderRecord> {
  const seen = new Map<string, OrderRecord>();
  for (const r of reports) {
    const known = seen.get(r.orderId);
    if (known === undefined || !isOlderReport(progressOf(known), progressOf(r))) seen.set(r.orderId, r);
  }
  return seen;
}
