/**
 * The changes (modifies and cancels) of orders that were requested and are not yet answered,
 * counted per order, so that the answer of one of them leaves the order pending while another is
 * still on its way (see core's `ORDER_TRANSITIONS`, `TransitionContext.stillPending`). Kept by a
 * strategy's view of its orders (`StrategyHost`) and by the risk book's (`RiskOrders`).
 *
 * Before, a second cancel given before the first was answered (two `ctx.cancel` in one hook, or in
 * two hooks) was refused — by the broker (`already-canceled`, `already-processing`) or, unsent, by
 * the risk module (`already-processing`) — and its refusal showed the order working again
 * (`ACCEPTED`) although the first cancel was still pending: a strategy that cancels the orders it
 * sees working cancelled it again and again until the first cancel's `OrderCanceled` came.
 *
 * @module
 */
import type { OrderEvent, OrderState, TransitionContext } from '@hoga/core';

/** The changes of one order requested and not yet answered. */
interface Outstanding {
  cancels: number;
  modifies: number;
}

/** The contexts of an answer while another change is pending (made once, not per event). */
const STILL_CANCEL: TransitionContext = { stillPending: 'PENDING_CANCEL' };
const STILL_MODIFY: TransitionContext = { stillPending: 'PENDING_MODIFY' };

/** See the module description. */
export class PendingChanges {
  /** Only orders with a change requested: a run that never modifies or cancels keeps none. */
  private readonly outstanding = new Map<string, Outstanding>();

  /**
   * Counts a change requested or answered, and answers the context its transition needs when it
   * answers a change while the order stays pending (another change unanswered, or a refusal of a
   * change that was never sent: nothing of the order changed); undefined for any other event.
   *
   * @param event - the order's event
   * @param state - the order's state before it
   */
  note(event: OrderEvent, state: OrderState): TransitionContext | undefined {
    switch (event.type) {
      case 'OrderCancelRequested':
      case 'OrderModifyRequested': {
        const o = this.outstanding.get(event.clientOrderId);
        const cancel = event.type === 'OrderCancelRequested';
        if (o === undefined) {
          this.outstanding.set(event.clientOrderId, { cancels: cancel ? 1 : 0, modifies: cancel ? 0 : 1 });
        } else if (cancel) o.cancels += 1;
        else o.modifies += 1;
        return undefined;
      }
      case 'OrderCancelRejected':
      case 'OrderModifyRejected':
        // refused before it was sent: no request was pending for it, the order stays as it was
        if (event.sent === false) return pendingContext(state);
        return this.answered(event.clientOrderId, event.type === 'OrderCancelRejected');
      case 'OrderModified':
        return this.answered(event.clientOrderId, false);
      default:
        return undefined;
    }
  }

  /** The order ended: nothing of it is pending any more. */
  forget(clientOrderId: string): void {
    if (this.outstanding.size !== 0) this.outstanding.delete(clientOrderId);
  }

  /** One change of the order answered: the context when another is still unanswered. */
  private answered(clientOrderId: string, cancel: boolean): TransitionContext | undefined {
    const o = this.outstanding.get(clientOrderId);
    if (o === undefined) return undefined;
    if (cancel) o.cancels = Math.max(0, o.cancels - 1);
    else o.modifies = Math.max(0, o.modifies - 1);
    if (o.cancels > 0) return STILL_CANCEL;
    if (o.modifies > 0) return STILL_MODIFY;
    this.outstanding.delete(clientOrderId);
    return undefined;
  }
}

/** The context keeping a pending order pending (undefined when it is not pending). */
function pendingContext(state: OrderState): TransitionContext | undefined {
  if (state === 'PENDING_CANCEL') return STILL_CANCEL;
  return state === 'PENDING_MODIFY' ? STILL_MODIFY : undefined;
}
