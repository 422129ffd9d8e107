/**
 * The orders a run had refused, counted by the refusal's code: denied before the venue (the risk
 * gate, a backtest's broker rules) or rejected by it. A backtest's report and the end of `hoga run`
 * show them.
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';

/** Counts refusals by code (see the module documentation). */
export class RefusalTally {
  private readonly byCode = new Map<string, number>();

  /** Counts `event` when it is a refusal (`OrderDenied`, `OrderRejected`); any other event is ignored. */
  note(event: OrderEvent): void {
    if (event.type !== 'OrderDenied' && event.type !== 'OrderRejected') return;
    const code = event.code ?? 'no-code';
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
  }

  /** The counts so far by code, codes sorted. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const code of [...this.byCode.keys()].sort()) out[code] = this.byCode.get(code) as number;
    return out;
  }
}
