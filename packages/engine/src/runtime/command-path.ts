/**
 * The way of a strategy's order command from the runtime to the venue: the risk gate prepares its
 * view (live and paper refresh it; a backtest's gate has nothing to refresh and answers at once),
 * judges the command, and the venue takes what it let through. A command the gate refuses, or the
 * runtime refuses before the gate (warm-up, a strategy's cash, a closed order), comes back to the
 * strategy as a denial event: `OrderDenied` for a create (stored with its intent), else
 * `OrderModifyRejected` or `OrderCancelRejected`. Commands are checked in the order they were given,
 * and each command of an order waits until the venue took the order's earlier one.
 *
 * Its steps keep their closures in methods of their own: a closure in a method makes V8 allocate a
 * context for the variables it captures on every call of the method, taken or not, and these run
 * once per order.
 *
 * @module
 */
import { BrokerApiError } from '@hoga/connector';
import type { ClientOrderId, Logger, OrderDenied, OrderEvent, StrategyId } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { RiskGate } from '../risk/risk-gate.js';
import type { EventRecorder } from '../store/event-recorder.js';
import type { ExecutionVenue } from '../venue/execution-venue.js';

function noop(): void {}

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

  /** Each order's last command still waiting for the gate (live, paper), by client order id. */
  private readonly checking = new Map<ClientOrderId, Promise<unknown>>();
  /**
   * Settles once the last command given was checked, while it waits for the gate (live, paper);
   * null when every command given was checked. The next command is checked after it.
   */
  private lastCheck: Promise<void> | null = null;

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
    // a gate that does not know the order yet has nothing to refresh for it: its create is still
    // being checked, and this command waits for that; so does any command given after one still
    // waiting for its check (a backtest's gate answers at once: none ever waits there)
    if (preparing === undefined && (this.lastCheck !== null || this.checking.has(clientOrderId))) {
      preparing = Promise.resolve();
    }
    if (preparing !== undefined) this.checkWhenPrepared(preparing, command, clientOrderId);
    else {
      const executing = this.checkAndExecute(command, clientOrderId);
      // a venue working asynchronously behind a gate with nothing to refresh (live, the gate disabled)
      if (executing !== undefined) this.track(clientOrderId, executing);
    }
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
      this.owner.enqueue({ type, ...refusal, sent: false });
      return;
    }
    const denied: OrderDenied = { type: 'OrderDenied', ...refusal };
    this.recorder.recordDenied?.(command.intent, denied);
    this.owner.enqueue(denied);
  }

  /**
   * Checks `command` once the gate prepared its view, the command given before it was checked and
   * the order's earlier commands were taken by the venue: commands reach the gate, and the venue, in
   * the order the strategies gave them, as they reach the broker with no gate before it. Before, a
   * cancel or modify in the same hook as its order's create (whose refresh reads the buying power
   * too, and takes longer) was checked first, refused `order-not-found` by a gate that did not know
   * the order yet, and the order went on working at the broker, paper and live; and a KR sell and
   * then a buy of the same stock in one hook had the buy checked and sent first (the sell's refresh
   * reads its sellable quantity too), and the sell denied `opposite-pending-order-exists`, where
   * the broker takes the sell and rejects the buy.
   */
  private checkWhenPrepared(preparing: Promise<void>, command: OrderCommand, id: ClientOrderId): void {
    const earlier = this.checking.get(id);
    const before = this.lastCheck;
    const ready =
      earlier === undefined && before === null
        ? preparing
        : Promise.all([preparing, earlier, before]).then(() => undefined);
    let executed: Promise<void> | undefined;
    const checked = ready.then(
      () => {
        executed = this.checkAndExecute(command, id);
      },
      (error: unknown) => {
        // a symbol the broker does not know: its code, as the broker would refuse the order (before,
        // `risk-unavailable`, which reads as a passing failure of the gate)
        if (error instanceof BrokerApiError && error.code === 'stock-not-found') {
          this.deny(
            command,
            command.strategyId,
            id,
            error.code,
            `the broker has no such stock: ${error.message}`,
          );
          return;
        }
        const reason = `the risk gate could not refresh its view: ${error instanceof Error ? error.message : String(error)}`;
        this.deny(command, command.strategyId, id, 'risk-unavailable', reason);
      },
    );
    // the order's next command waits until the venue took this one (live: the broker answered the
    // create, so a cancel has a broker order to cancel); the run waits for the check only
    this.track(
      id,
      checked.then(() => executed),
    );
    this.owner.await(checked);
    // the next command given waits for this one's check, whatever came of it
    const settled = checked.then(noop, noop);
    this.lastCheck = settled;
    void settled.then(() => this.checkedInOrder(settled));
  }

  /** A check done: commands given from now on wait for none (unless a later one took its place). */
  private checkedInOrder(settled: Promise<void>): void {
    if (this.lastCheck === settled) this.lastCheck = null;
  }

  /** Makes the order's next command wait for `done` (it never rejects). */
  private track(id: ClientOrderId, done: Promise<unknown>): void {
    this.checking.set(id, done);
    void done.then(
      () => this.checked(id, done),
      () => this.checked(id, done),
    );
  }

  /** The last command of an order done: it is no longer waited for (unless a later one replaced it). */
  private checked(id: ClientOrderId, done: Promise<unknown>): void {
    if (this.checking.get(id) === done) this.checking.delete(id);
  }

  /** Judges `command` and hands it to the venue; answers the venue's promise when it works asynchronously. */
  private checkAndExecute(command: OrderCommand, clientOrderId: ClientOrderId): Promise<void> | undefined {
    const verdict = this.risk.check(command);
    if (!verdict.accepted) {
      this.deny(command, command.strategyId, clientOrderId, verdict.code, verdict.reason);
      return undefined;
    }
    const venue = this.venue;
    if (venue.executeNow !== undefined) {
      // a venue that works synchronously (the simulated one): no promise and no microtask per order
      try {
        venue.executeNow(command);
      } catch (error) {
        this.venueFailed(command, clientOrderId, error);
      }
      return undefined;
    }
    return this.executeLater(venue, command, clientOrderId);
  }

  private executeLater(
    venue: ExecutionVenue,
    command: OrderCommand,
    clientOrderId: ClientOrderId,
  ): Promise<void> {
    return venue.execute(command).catch((error: unknown) => this.venueFailed(command, clientOrderId, error));
  }

  private venueFailed(command: OrderCommand, clientOrderId: ClientOrderId, error: unknown): void {
    this.log.error({ err: error, clientOrderId }, 'the venue failed to take a command');
    this.owner.venueFailed(command.strategyId, error);
  }
}
