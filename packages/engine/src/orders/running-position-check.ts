/**
 * The comparison of the positions with the holdings while the engine runs ({@link RunningPositionCheck}).
 *
 * @module
 */
import type { OrderRecord } from '@hoga/connector';
import type { OrderManager } from './order-manager.js';
import { comparePositions } from './reconciliation.js';

/** A symbol that differed at a check: what was booked for it then, and by how much it differed. */
interface Suspect {
  readonly booked: string;
  readonly difference: string;
}

/**
 * The comparison of the positions with the holdings while running (a broker that lost its state,
 * shares sold or moved out at the broker that no poll can see): after a complete poll, every
 * `positionCheckMs` of engine time, the symbols are compared but those with a command unsettled
 * (one being sent is stored `sending` first) or a broker order open whose fills this poll cannot
 * vouch for (another run's, one the poll's lists did not show, or one the lists showed filled
 * further than the store booked), before or after the holdings are read.
 *
 * A fill can still fall between the poll's order lists and the holdings read (an open order filling,
 * an order from another channel placed and filled meanwhile): a symbol that differs is compared
 * again after the next complete poll, which books that fill, and reported (`PositionMismatch`) and
 * barred only if it still differs and either nothing was booked for it between the two checks (its
 * position and its open orders' filled quantities as they were: no fill was on its way) or it
 * differs by the same quantity (the fills booked between did not explain it).
 *
 * Before, a running engine compared them only at its start, and then, running, skipped every symbol
 * with a broker order open: a broker restarted without its state left the engine trading a
 * position the broker no longer had until the next start, and a strategy that keeps a resting
 * order never had its symbol compared while it ran.
 */
export class RunningPositionCheck {
  private checkedAt: number | null = null;
  /** Symbols that differed at the last check: barred if they still differ at the next one. */
  private suspects = new Map<string, Suspect>();

  constructor(private readonly m: OrderManager) {}

  /**
   * After a poll that read every list it meant to.
   *
   * @param seen - the broker orders that poll's lists showed, by id
   */
  async afterCompletePoll(seen: ReadonlyMap<string, OrderRecord>): Promise<void> {
    const period = this.m.options.positionCheckMs;
    if (period <= 0) return;
    const now = this.m.clock.nowMs();
    if (this.checkedAt === null) this.checkedAt = now; // the start has just compared them
    if (this.suspects.size === 0 && now - this.checkedAt < period) return;
    this.checkedAt = now;
    const before = unsure(this.m, seen);
    let after: ReadonlySet<string> | null = null;
    let booked: Map<string, string> | null = null;
    const differing = new Map<string, Suspect>();
    await comparePositions(this.m, {
      barNew: (symbol, store, broker) => {
        after ??= unsure(this.m, seen);
        if (before.has(symbol) || after.has(symbol)) return false;
        booked ??= bookedNow(this.m);
        const suspect = { booked: booked.get(symbol) ?? '', difference: broker.minus(store).toString() };
        differing.set(symbol, suspect);
        const last = this.suspects.get(symbol);
        return (
          last !== undefined && (last.booked === suspect.booked || last.difference === suspect.difference)
        );
      },
    });
    for (const symbol of differing.keys()) if (this.m.isBlocked(symbol)) differing.delete(symbol);
    this.suspects = differing;
  }
}

/**
 * Symbols whose position may be short of a fill on its way: a command unsettled, or an open broker
 * order another run works, the poll's lists did not show, or they showed filled further than the
 * store booked.
 */
function unsure(m: OrderManager, seen: ReadonlyMap<string, OrderRecord>): Set<string> {
  const skip = new Set<string>();
  for (const c of m.store.unresolvedCommands()) skip.add(c.symbol);
  const open = m.store.openExecutions();
  if (open.length === 0) return skip;
  const others = m.ownership.others();
  for (const e of open) {
    const listed = seen.get(e.brokerOrderId);
    if (
      listed === undefined ||
      !listed.execution.filledQuantity.equals(e.filledQuantity) ||
      m.ownership.leaves(e.clientOrderId, others)
    )
      skip.add(e.symbol);
  }
  return skip;
}

/** Each symbol's position and its open broker orders' filled quantities, as the store holds them. */
function bookedNow(m: OrderManager): Map<string, string> {
  const booked = new Map<string, string>();
  for (const [symbol, quantity] of m.store.positions()) booked.set(symbol, quantity.toString());
  const open = m.store
    .openExecutions()
    .map((e) => ({ symbol: e.symbol, id: `${e.brokerOrderId}:${e.filledQuantity.toString()}` }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const { symbol, id } of open) booked.set(symbol, `${booked.get(symbol) ?? '0'} ${id}`);
  return booked;
}
