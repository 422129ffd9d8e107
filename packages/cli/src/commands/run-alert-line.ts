/**
 * `hoga run`'s line for an alert of the order manager: what happened in words, and what it means
 * for the run (a position that differs from the broker's holding bars the symbol's new orders).
 *
 * @module
 */
import type { OrderManagerAlert } from '@hoga/engine';

/**
 * The alert as one line after its time (`ALERT …`), or null for an alert the run does not print
 * (an order of another channel adopted: its fills are reported as any other).
 *
 * @param a - the alert
 */
export function alertLine(a: OrderManagerAlert): string | null {
  switch (a.type) {
    case 'ExternalOrderAdopted':
      return null;
    case 'PositionMismatch':
      return (
        `ALERT position mismatch ${a.symbol}: the store holds ${a.store}, the broker ${a.broker}; ` +
        `new orders of ${a.symbol} are denied (symbol-blocked) until the two agree again ` +
        '(the run compares them every 10 s; an order of another channel, or a fill hoga did not see, makes them differ)'
      );
    case 'PositionResolved':
      return `ALERT position ${a.symbol} agrees with the broker again: its new orders are taken again`;
    case 'OrderOutcomeUnknown':
      return (
        `ALERT order ${a.clientOrderId}: the outcome of its ${a.kind} is not known (${a.reason}); ` +
        'check the order at the broker (hoga orders)'
      );
    case 'OrderMissingAtBroker':
      return (
        `ALERT order ${a.clientOrderId} (broker id ${a.brokerOrderId}): the broker has no record of it; ` +
        'it is counted ended'
      );
    default:
      return `ALERT ${(a as { type: string }).type}`;
  }
}
