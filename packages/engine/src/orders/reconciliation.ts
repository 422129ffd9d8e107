/**
 * Startup reconciliation and the position check of the order manager: what the store holds is
 * compared with the broker's open orders, the orders closed since the last run and the holdings;
 * what is missing is adopted, completed and emitted; a symbol whose position still differs from the
 * holdings is reported and barred from trading until it matches again (checked again after polls
 * while anything is barred). While running, complete polls compare the positions again every
 * `positionCheckMs` (`RunningPositionCheck`, running-position-check.ts).
 *
 * @module
 */

import type { Holdings } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import type { OrderManager } from './order-manager.js';
import { POLL } from './order-manager-options.js';
import { CommandStatus } from './order-manager-store.js';

const ZERO = new Decimal(0);

/** Polls the start makes at most before it compares the positions (while one settles commands). */
const START_POLLS = 4;

/** What the startup reconciliation found. */
export interface ReconcileReport {
  readonly firstRun: boolean;
  readonly adopted: number;
  readonly mismatched: readonly string[];
}

/**
 * Startup reconciliation: interrupted commands become unsettled; on the first run the open
 * orders are adopted at their current execution and the positions copied from the holdings;
 * later runs read everything closed since the last poll; then the positions are compared with
 * the holdings and a symbol that still differs is barred.
 */
export async function reconcileWithBroker(m: OrderManager): Promise<ReconcileReport> {
  const now = m.clock.nowMs();
  m.store.repairInterrupted();
  m.store.repairLinks(now);
  m.store.repairModifiedTerms(now);
  // (a command of a strategy another live run works is being sent by that run, and one `hoga order`
  // holds the lease of by that process: neither was interrupted. Leases are read after the
  // commands: a command's lease is taken before it is written.)
  const unresolved = m.store.unresolvedCommands();
  const others = m.ownership.others();
  const inFlight = m.ownership.inFlight();
  for (const c of unresolved)
    if (c.status === CommandStatus.SENDING && !m.ownership.leavesCommand(c, others, inFlight))
      m.store.settleCommand(c.commandId, CommandStatus.AMBIGUOUS, now, { error: 'interrupted' });
  const firstRun = m.store.meta('baseline_at') === null;
  let adopted = 0;
  if (firstRun) {
    const open = await m.gateway.listOrders({ status: 'OPEN' }, POLL);
    for (const record of open.orders) {
      if (m.store.execution(record.orderId) !== null) continue;
      m.adopt(record, true);
      m.applyRecord(record);
      adopted++;
    }
    const holdings = await m.gateway.getHoldings({}, POLL);
    for (const item of holdings.items) m.store.setPosition(item.symbol, item.quantity, now);
    m.store.setMeta('baseline_at', String(now));
    m.store.setMeta('last_poll_at', String(now));
  } else {
    // A command the start settles (a create the engine was killed sending, found at the broker by
    // its key) links its order in a poll, and the next poll reads that order's fills: the positions
    // are compared once a poll settled nothing more. Before, they were compared at once: the start
    // reported PositionMismatch (store 100, broker 102) and barred the symbol, and a poll later
    // PositionResolved, though nothing was wrong.
    for (let poll = 0; poll < START_POLLS; poll++) {
      const before = m.store.unresolvedCommands().map((c) => c.commandId);
      await m.pollOnce(20);
      const after = new Set(m.store.unresolvedCommands().map((c) => c.commandId));
      if (before.every((id) => after.has(id))) break;
    }
  }
  m.settleFinished(); // logical orders left open with every broker order closed (a poll does it too)
  const averages = new Map<string, Decimal>();
  // a symbol whose fill another process may not have counted yet is not barred here (the running
  // checks compare it once that process has): before, a run started while another run's order had
  // filled at the broker, not yet counted by that run, barred the symbol for both
  const elsewhere = countedElsewhere(m);
  const mismatched = await comparePositions(m, { barNew: (symbol) => !elsewhere.has(symbol) }, averages);
  m.store.snapshotPositions(m.clock.nowMs(), averages);
  return { firstRun, adopted, mismatched };
}

/**
 * The symbols of what another process counts the fills of: an open broker order of a strategy
 * another live run works, and a command another process is sending or settling (another run's, or
 * one a `hoga order` process holds the lease of).
 */
function countedElsewhere(m: OrderManager): Set<string> {
  const others = m.ownership.others();
  const inFlight = m.ownership.inFlight();
  const symbols = new Set<string>();
  for (const c of m.store.unresolvedCommands())
    if (m.ownership.leavesCommand(c, others, inFlight)) symbols.add(c.symbol);
  if (others.size === 0) return symbols;
  for (const e of m.store.openExecutions())
    if (m.ownership.leaves(e.clientOrderId, others)) symbols.add(e.symbol);
  return symbols;
}

/** How long a stop waits at most for the holdings of its position snapshot (real ms). */
const SNAPSHOT_HOLDINGS_MS = 10_000;

/**
 * Saves a position snapshot (at a stop), each position's average the broker's where its holding
 * equals the position; when the holdings cannot be read (within 10 s), with no averages (NULL).
 */
export async function snapshotPositions(m: OrderManager): Promise<void> {
  let holdings: Holdings | null = null;
  try {
    const signal = AbortSignal.timeout(SNAPSHOT_HOLDINGS_MS);
    holdings = await m.gateway.getHoldings({}, { ...POLL, signal });
  } catch {
    // the broker unreachable at the stop: the quantities are saved all the same
  }
  const averages =
    holdings === null ? new Map<string, Decimal>() : equalAverages(holdings, m.store.positions());
  m.store.snapshotPositions(m.clock.nowMs(), averages);
}

/** The broker's average purchase price of each holding equal to the position of its symbol. */
function equalAverages(holdings: Holdings, ours: ReadonlyMap<string, Decimal>): Map<string, Decimal> {
  const averages = new Map<string, Decimal>();
  for (const item of holdings.items)
    if (!item.quantity.isZero() && ours.get(item.symbol)?.equals(item.quantity) === true)
      averages.set(item.symbol, item.averagePurchasePrice);
  return averages;
}

/**
 * Compares the positions with the broker's holdings; bars or frees symbols. Returns the barred.
 *
 * @param options - `barNew: false` frees barred symbols that match and bars nothing new; a function
 *   says of each differing symbol not barred yet, given its position and the broker's holding,
 *   whether to bar it (one it refuses is not returned)
 * @param averages - filled with the broker's average purchase price of each holding equal to the
 *   position (for the position snapshot)
 */
export async function comparePositions(
  m: OrderManager,
  options: {
    readonly barNew?: boolean | ((symbol: string, store: Decimal, broker: Decimal) => boolean);
  } = {},
  averages?: Map<string, Decimal>,
): Promise<string[]> {
  const now = m.clock.nowMs();
  const holdings = await m.gateway.getHoldings({}, POLL);
  const broker = new Map(holdings.items.map((i) => [i.symbol, i.quantity]));
  const ours = m.store.positions();
  if (averages !== undefined) for (const [s, a] of equalAverages(holdings, ours)) averages.set(s, a);
  const blocked = m.store.blocked();
  const mismatched: string[] = [];
  for (const symbol of new Set([...broker.keys(), ...ours.keys()])) {
    const b = broker.get(symbol);
    const o = ours.get(symbol);
    const same =
      (b === undefined || b.isZero()) && (o === undefined || o.isZero())
        ? true
        : b !== undefined && o !== undefined && b.equals(o);
    if (same) {
      if (blocked.has(symbol)) {
        m.store.unblock(symbol);
        m.alert({ type: 'PositionResolved', symbol, tsEvent: now });
      }
      continue;
    }
    const barNew = options.barNew ?? true;
    if (
      !blocked.has(symbol) &&
      !(typeof barNew === 'function' ? barNew(symbol, o ?? ZERO, b ?? ZERO) : barNew)
    )
      continue;
    mismatched.push(symbol);
    if (!blocked.has(symbol)) {
      m.store.block(symbol, `store ${o ?? 0}, broker ${b ?? 0}`, now);
      m.alert({
        type: 'PositionMismatch',
        symbol,
        store: String(o ?? 0),
        broker: String(b ?? 0),
        tsEvent: now,
      });
    }
  }
  return mismatched;
}
