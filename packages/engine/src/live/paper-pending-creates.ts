/**
 * The paper orders given but not yet judged: a `ctx.submit` hands its id back at once, and the order
 * reaches the paper venue (and the store, `OrderSubmitted`) only once the risk gate read what it
 * needs (a quote, a calendar, an instrument: broker reads that take milliseconds to seconds). A
 * strategy that keeps the id in `ctx.state` (written at once) and is killed meanwhile had, before,
 * an id in its state that no store row, open order or event ever named after the restart: the
 * order was silently gone.
 *
 * So each create is noted in the store (`strategy_state` of `paper/_account`, key `submitting`)
 * synchronously as it is given, before its id is handed back ({@link PaperPendingCreates.note},
 * from `PaperStoreGate.prepare`), and forgotten in memory once the gate judged it (its row is then
 * written by the venue's `OrderSubmitted` or by the denial, in the same synchronous step). The next
 * paper run settles what an earlier one left ({@link PaperPendingCreates.settle}): a create with no
 * row never reached the paper venue, and ends as `OrderDenied`, code {@link RUN_ENDED}, stored
 * DENIED and told to its strategy before `onStart`, as the other events of the time it was down are.
 * It is not placed again: the market has moved on since the strategy decided on it.
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  type Logger,
  newEventId,
  type OrderDenied,
  type OrderIntent,
  type StrategyId,
} from '@hoga/core';
import { type HogaDatabase, orderFromIntent } from '@hoga/store';
import type { SubmitOrder } from '../commands/order-commands.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import { trackedOrderOf } from '../runtime/order-views.js';
import { PAPER_STATE_ID } from './paper-store.js';

/** The code of a create the paper run ended before it judged (see the module documentation). */
export const RUN_ENDED = 'run-ended';

/** Where the creates given and not yet judged are kept (owner {@link PAPER_STATE_ID}). */
const KEY = 'submitting';

/** See the module documentation. */
export class PaperPendingCreates {
  /** The creates given and not yet judged, by client order id: their intents as stored. */
  private readonly pending = new Map<string, unknown>();

  /**
   * @param db - the run's store
   * @param log - the paper account's logger
   * @param onError - told of a write the store refused (the create goes on: nothing is lost unless
   *   the process also dies before its row is written)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly log: Logger,
    private readonly onError?: (error: unknown, where: string) => void,
  ) {}

  /** Notes a create as it is given: stored before its id is handed back to the strategy. */
  note(command: SubmitOrder): void {
    // one the gate never judged (its read failed: denied, its row written by the denial) is done too
    for (const id of this.pending.keys()) if (this.db.orders.get(id) !== null) this.pending.delete(id);
    this.pending.set(command.intent.clientOrderId, JSON.parse(JSON.stringify(command.intent)));
    this.write();
  }

  /** The gate judged the create: its row is written in the same synchronous step. */
  judged(id: ClientOrderId): void {
    this.pending.delete(id);
  }

  /**
   * Settles the creates an earlier paper run noted and never judged: each with no row is stored
   * DENIED and told to its strategy as `OrderDenied` (`tell`, the venue's event stream), the
   * strategy tracking it first so that `ctx.order(id)` there is the order. Call before `onStart`.
   */
  settle(runtime: EngineRuntime, nowMs: number, tell: (event: OrderDenied) => void): void {
    const saved = this.db.strategyState.get(PAPER_STATE_ID, KEY);
    if (!Array.isArray(saved)) return;
    const lost: OrderIntent[] = [];
    for (const raw of saved as Record<string, unknown>[]) {
      const intent = intentOf(raw);
      if (intent === null || this.db.orders.get(intent.clientOrderId) !== null) continue;
      lost.push(intent);
    }
    if (lost.length > 0)
      this.log.info(
        { orders: lost.map((i) => i.clientOrderId) },
        'paper orders given before the last run ended and never judged: denied',
      );
    for (const intent of lost) {
      const event: OrderDenied = {
        type: 'OrderDenied',
        eventId: newEventId(),
        clientOrderId: intent.clientOrderId,
        ...(intent.strategyId === undefined ? {} : { strategyId: intent.strategyId }),
        tsEvent: nowMs,
        tsInit: nowMs,
        code: RUN_ENDED,
        reason:
          'the paper run ended (stopped or killed) before this order was checked: it never reached the paper venue; place it again if it is still wanted',
      };
      const reason = `${RUN_ENDED}: ${event.reason}`;
      this.db.orders.recordIntent({
        ...orderFromIntent(intent, { mode: 'paper', state: 'DENIED', createdAt: nowMs }),
        strategyId: intent.strategyId ?? null,
      });
      this.db.orders.updateState(intent.clientOrderId, {
        state: 'DENIED',
        updatedAt: nowMs,
        rejectReason: reason,
      });
      const host = runtime.hosts.find((h) => h.strategyId === intent.strategyId);
      if (host !== undefined && !host.owns(intent.clientOrderId)) host.track(trackedOrderOf(intent));
      tell(event);
    }
    this.db.strategyState.delete(PAPER_STATE_ID, KEY);
  }

  private write(): void {
    try {
      this.db.strategyState.set(PAPER_STATE_ID, KEY, [...this.pending.values()]);
    } catch (error) {
      this.onError?.(error, 'paper-store');
    }
  }
}

/** A stored intent back as an `OrderIntent` (its decimals as `Decimal`); null when it is not one. */
function intentOf(raw: Record<string, unknown>): OrderIntent | null {
  if (typeof raw.clientOrderId !== 'string' || typeof raw.instrument !== 'object' || raw.instrument === null)
    return null;
  const decimal = (v: unknown) => (v === undefined || v === null ? {} : { value: new Decimal(String(v)) });
  const out: Record<string, unknown> = { ...raw, strategyId: raw.strategyId as StrategyId | undefined };
  for (const field of ['quantity', 'price', 'amount'] as const) {
    const d = decimal(raw[field]);
    if ('value' in d) out[field] = d.value;
  }
  return Object.freeze(out) as unknown as OrderIntent;
}
