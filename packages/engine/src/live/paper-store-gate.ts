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
 * With the risk module disabled, a modify or cancel the broker would refuse (its fields, price
 * limits and ticks, order hours, …) is let through to the paper venue too, which judges it by
 * the broker's rules ({@link PaperBrokerRules}) once it found the order working:
 * `OrderModifyRequested` / `OrderCancelRequested`, then `OrderModifyRejected` /
 * `OrderCancelRejected` with the broker's code, `sent: true`, as live's strategy hears the broker
 * refuse it (before, it was refused here: the rejection alone, `sent: false`); only a modify live's
 * connector would not send (a price for a MARKET order) is refused here; a new order the broker
 * would refuse (order hours, the session's order types, price limits and ticks, the high-value
 * confirmation, the maximum amount, the KR opposite side, …) is let through to the paper venue,
 * which judges it by the same rules as it takes it (`OrderSubmitted`, then `OrderRejected` with the
 * broker's code, stored REJECTED: see `PaperAccount.guard`), as live's broker takes and answers it.
 * Before, it was denied here (`OrderDenied`): only the code was live's. The risk module judges these
 * when on, and denies them in every mode.
 *
 * A cancel goes through: it only takes risk off, the paper venue needs nothing stored to cancel,
 * and its events (`OrderCancelRequested`, `OrderCanceled`) wait in the store's outbox behind the
 * others and are stored and told with them, as any event the venue makes meanwhile (a DAY
 * expiry, the risk module's own cancels when a kill switch trips). Until then the strategy sees
 * the order as it was told (pending its cancel); a crash meanwhile leaves the store, and the next
 * paper run, with the order working, as before the first refused write.
 *
 * A create, modify or cancel is noted in the store as it is given, before the strategy's call
 * returns, and forgotten once judged ({@link PaperPendingCreates}): a create a kill left unjudged
 * is denied at the next start, a change told refused (`run-ended`), its order working on.
 *
 * @module
 */
import { type OrderCommand, unsendableModify } from '../commands/order-commands.js';
import { STORE_UNAVAILABLE } from '../orders/order-manager-options.js';
import type { RiskGate, RiskVerdict } from '../risk/risk-gate.js';
import type { PaperBrokerRules } from './paper-broker-rules.js';
import type { PaperReserve } from './paper-reserve.js';
import type { PaperStore } from './paper-store.js';
import { judgedNow, type NotedCommands, prepareNoted } from './pending-creates-gate.js';

export { STORE_UNAVAILABLE };

/** See the module documentation. */
export class PaperStoreGate implements RiskGate {
  /**
   * @param gate - the risk module's gate
   * @param store - the paper account's store
   * @param reserve - what the paper account holds a market buy at
   * @param rules - given when the risk module is disabled: the broker's rules commands are judged by
   * @param creates - where the creates, modifies and cancels given and not yet judged are noted
   */
  constructor(
    private readonly gate: RiskGate,
    private readonly store: Pick<PaperStore, 'refusal'>,
    private readonly reserve?: Pick<PaperReserve, 'refusal'>,
    private readonly rules?: Pick<PaperBrokerRules, 'prepare' | 'check'>,
    private readonly creates?: NotedCommands,
  ) {}

  /**
   * The risk module's refresh for `command` (a create or modify still checked once it is done), and
   * with the risk module disabled the broker's market data its rules read. A create, modify or cancel
   * is noted first (synchronously, before `ctx.submit`, `ctx.modify` or `ctx.cancel` returns).
   */
  prepare(command: OrderCommand): Promise<void> | undefined {
    return prepareNoted(this.creates, command, () => {
      const own = this.gate.prepare?.(command);
      const rules = this.rules?.prepare(command);
      if (rules === undefined) return own;
      return own === undefined ? rules : Promise.all([own, rules]).then(() => undefined);
    });
  }

  /**
   * Refuses a create or modify while the store refuses writes, with the risk module disabled a
   * modify live's connector would not send ({@link unsendableModify}), and a market buy with no
   * price to hold it at (unless the broker refuses it: the venue rejects it then, as the broker
   * would); else the risk module's verdict.
   */
  check(command: OrderCommand): RiskVerdict {
    // judged now: its row is written in this synchronous step (the venue's OrderSubmitted, or the denial)
    judgedNow(this.creates, command);
    if (command.type !== 'CancelOrder') {
      const reason = this.store.refusal;
      if (reason !== null) return { accepted: false, code: STORE_UNAVAILABLE, reason };
    }
    if (command.type !== 'SubmitOrder') {
      // the broker's rules judge it at the paper venue (see `PaperAccount.guard`): here only what
      // live's connector would not send
      const unsendable =
        this.rules !== undefined && command.type === 'ModifyOrder' ? unsendableModify(command) : null;
      return unsendable ?? this.gate.check(command);
    }
    const unpriced = this.reserve?.refusal(command.intent) ?? null;
    if (unpriced !== null && this.rules?.check(command).accepted !== false) return unpriced;
    return this.gate.check(command);
  }
}
