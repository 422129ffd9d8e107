/**
 * The risk gate of a paper run: the risk module's, closed to new orders and modifies while the
 * paper store refuses writes ({@link PaperStore.refusal}). The paper store tells the runtime each
 * order event only once it holds it (persist, then publish), and the risk module learns of open
 * orders from those events: an order the paper venue took while the store refused would work
 * unseen by it, its `maxOpenOrders` and the exposure of open orders exceeded. So such a command is
 * refused before the venue (fail closed, as live writes a command's row before it sends it, and
 * sends nothing the store did not take): `OrderDenied` (a create, its intent stored when the store can) or `OrderModifyRejected`,
 * code {@link STORE_UNAVAILABLE}, the reason naming the store's refusal; once the store takes what
 * waits, orders go through again.
 *
 * A market buy by quantity with no price to hold its cash at (see {@link PaperReserve}) is denied
 * too, before the risk module takes its reservation: the paper venue would hold nothing for it.
 *
 * With the risk module disabled, a new order the broker would refuse for the session (order hours,
 * `MARKET` outside the regular session, the US amount-order window) is denied with the broker's
 * code ({@link paperSessionRefusal}): the risk module judges these when on; off, nothing did.
 *
 * A cancel goes through: it only takes risk off, the paper venue needs nothing stored to cancel,
 * and its events (`OrderCancelRequested`, `OrderCanceled`) wait in the store's outbox behind the
 * others and are stored and told with them, as any event the venue makes meanwhile (a DAY
 * expiry, the risk module's own cancels when a kill switch trips). Until then the strategy sees
 * the order as it was told (pending its cancel); a crash meanwhile leaves the store, and the next
 * paper run, with the order working, as before the first refused write.
 *
 * @module
 */
import type { Clock } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import { STORE_UNAVAILABLE } from '../orders/order-manager-options.js';
import type { RiskGate, RiskVerdict } from '../risk/risk-gate.js';
import type { PaperReserve } from './paper-reserve.js';
import { paperSessionRefusal } from './paper-session-rules.js';
import type { PaperStore } from './paper-store.js';

export { STORE_UNAVAILABLE };

/** See the module documentation. */
export class PaperStoreGate implements RiskGate {
  /**
   * @param gate - the risk module's gate
   * @param store - the paper account's store
   * @param reserve - what the paper account holds a market buy at
   * @param sessionClock - given when the risk module is disabled: the clock new orders are judged
   *   by the broker's session rules at
   */
  constructor(
    private readonly gate: RiskGate,
    private readonly store: Pick<PaperStore, 'refusal'>,
    private readonly reserve?: Pick<PaperReserve, 'refusal'>,
    private readonly sessionClock?: Pick<Clock, 'nowMs'>,
  ) {}

  /** The risk module's refresh for `command` (a create or modify still checked once it is done). */
  prepare(command: OrderCommand): Promise<void> | undefined {
    return this.gate.prepare?.(command);
  }

  /**
   * Refuses a create or modify while the store refuses writes, with the risk module disabled a
   * create the broker refuses for the session, and a market buy with no price to hold it at; else
   * the risk module's verdict.
   */
  check(command: OrderCommand): RiskVerdict {
    if (command.type !== 'CancelOrder') {
      const reason = this.store.refusal;
      if (reason !== null) return { accepted: false, code: STORE_UNAVAILABLE, reason };
    }
    if (command.type !== 'SubmitOrder') return this.gate.check(command);
    const clock = this.sessionClock;
    // the broker answers a session's refusal before anything else of the order
    const closed = clock === undefined ? null : paperSessionRefusal(command.intent, clock.nowMs());
    return closed ?? this.reserve?.refusal(command.intent) ?? this.gate.check(command);
  }
}
