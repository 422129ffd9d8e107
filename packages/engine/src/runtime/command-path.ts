/**
 * The way of a strategy's order command from the runtime to the venue: the risk gate prepares its
 * view (live and paper refresh it; a backtest's gate has nothing to refresh and answers at once),
 * judges the command, and the venue takes what it let through. A command the gate refuses, or the
 * runtime refuses before the gate (warm-up, a strategy's cash, a closed order), comes back to the
 * strategy as a denial event: `OrderDenied` for a create (stored with its intent), else
 * `OrderModifyRejected` or `OrderCancelRejected`.
 *
 * Its steps keep their closures in methods of their own: a closure in a method makes V8 allocate a
 * context for the variables it captures on every call of the method, taken or not, and these run
 * once per order.
 *
 * @module
 */
import type { ClientOrderId, Logger, OrderDenied, OrderEvent, StrategyId } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { RiskGate } from '../risk/risk-gate.js';
import type { EventRecorder } from '../store/event-recorder.js';
import type { ExecutionVenue } from '../venue/execution-venue.js';

/** What the path hands back to the runtime. */
export interface CommandPathOwner {
  /** Queues an event for routing (the denials). */
  enqueue(event: OrderEvent): void;
  /** Keeps a promise the run waits for before its next step (a gate's refresh). */
  await(promise: Promise<void>): void;
  /** The venue failed to take a command of this strategy: the strategy's failure. */
  venueFailed(strategyId: string, error: unknown): void;
}

/** See the module description. */
export class CommandPath {
  /**
   * @param risk - the run's risk gate
   * @param venue - the run's venue
   * @param recorder - stores a denied create's intent
   * @param log - the engine's logger
   * @param owner - the runtime
   */
  constructor(
    private readonly risk: RiskGate,
    private readonly venue: ExecutionVenue,
    private readonly recorder: EventRecorder,
    private readonly log: Logger,
    private readonly owner: CommandPathOwner,
  ) {}

  /** Sends a command through the risk gate to the venue. */
  send(command: OrderCommand, clientOrderId: ClientOrderId): void {
    // A gate that refreshes its view first (live, paper) hands back a promise: check once it has.
    // A gate with nothing to refresh (a backtest's) answers `undefined`: check now, synchronously.
    let preparing: Promise<void> | undefined;
    try {
      preparing = this.risk.prepare?.(command);
    } catch (error) {
      preparing = Promise.reject(error);
    }
    if (preparing !== undefined) this.checkWhenPrepared(preparing, command, clientOrderId);
    else this.checkAndExecute(command, clientOrderId);
  }

  /** Refuses a command before the venue: its denial event goes to the strategy (see the module description). */
  deny(command: OrderCommand, strategyId: StrategyId, id: ClientOrderId, code: string, reason: string): void {
    const at = command.tsInit;
    const refusal = {
      eventId: `${command.commandId}:denied`,
      clientOrderId: id,
      strategyId,
      tsEvent: at,
      tsInit: at,
      code,
      reason,
    };
    if (command.type !== 'SubmitOrder') {
      const type = command.type === 'CancelOrder' ? 'OrderCancelRejected' : 'OrderModifyRejected';
      this.owner.enqueue({ type, ...refusal });
      return;
    }
    const denied: OrderDenied = { type: 'OrderDenied', ...refusal };
    this.recorder.recordDenied?.(command.intent, denied);
    this.owner.enqueue(denied);
  }

  private checkWhenPrepared(preparing: Promise<void>, command: OrderCommand, id: ClientOrderId): void {
    this.owner.await(
      preparing.then(
        () => this.checkAndExecute(command, id),
        (error: unknown) => {
          const reason = `the risk gate could not refresh its view: ${error instanceof Error ? error.message : String(error)}`;
          this.deny(command, command.strategyId, id, 'risk-unavailable', reason);
        },
      ),
    );
  }

  private checkAndExecute(command: OrderCommand, clientOrderId: ClientOrderId): void {
    const verdict = this.risk.check(command);
    if (!verdict.accepted) {
      this.deny(command, command.strategyId, clientOrderId, verdict.code, verdict.reason);
      return;
    }
    const venue = this.venue;
    if (venue.executeNow !== undefined) {
      // a venue that works synchronously (the simulated one): no promise and no microtask per order
      try {
        venue.executeNow(command);
      } catch (error) {
        this.venueFailed(command, clientOrderId, error);
      }
      return;
    }
    this.executeLater(venue, command, clientOrderId);
  }

  private executeLater(venue: ExecutionVenue, command: OrderCommand, clientOrderId: ClientOrderId): void {
    venue.execute(command).catch((error: unknown) => this.venueFailed(command, clientOrderId, error));
  }

  private venueFailed(command: OrderCommand, clientOrderId: ClientOrderId, error: unknown): void {
    this.log.error({ err: error, clientOrderId }, 'the venue failed to take a command');
    this.owner.venueFailed(command.strategyId, error);
  }
}
