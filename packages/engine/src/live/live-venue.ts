/**
 * The live execution venue: commands go to the broker through the order manager, which owns order
 * identity and fills in the store; its events are this venue's events. The venue polls the order
 * history on a steady (real-time) interval while it runs.
 *
 * @module
 */
import { newEventId, type OrderEvent } from '@hoga/core';
import type { Observable } from 'rxjs';
import type { OrderCommand } from '../commands/order-commands.js';
import type { OrderManager } from '../orders/order-manager.js';
import type { ExecutionVenue } from '../venue/execution-venue.js';

/** Options of {@link LiveVenue}. */
export interface LiveVenueOptions {
  /** Real milliseconds between the end of one order poll and the start of the next (default 1000). */
  readonly pollIntervalMs?: number;
  /** Receives a failed poll (the loop goes on). */
  readonly onPollError?: (error: unknown) => void;
  /** Called after each successful poll (the risk module's stale-data monitor). */
  readonly onPollSuccess?: () => void;
}

/** See the module description. */
export class LiveVenue implements ExecutionVenue {
  /** Order events of the manager (own orders and adopted external ones). */
  readonly events$: Observable<OrderEvent>;
  private readonly run = newEventId().slice(0, 8);
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  /**
   * @param manager - the order manager
   * @param options - poll interval, error sink
   */
  constructor(
    readonly manager: OrderManager,
    private readonly options: LiveVenueOptions = {},
  ) {
    this.events$ = manager.events$;
  }

  /** Reconciles with the broker, then starts polling. */
  async start(): Promise<void> {
    await this.manager.reconcile();
    this.running = true;
    this.schedule();
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.loop = this.manager
        .pollOnce()
        .then(
          () => this.options.onPollSuccess?.(),
          (error: unknown) => this.options.onPollError?.(error),
        )
        .finally(() => this.schedule());
    }, this.options.pollIntervalMs ?? 1_000);
  }

  /** @inheritdoc */
  execute(command: OrderCommand): Promise<void> {
    // Command ids of the runtime count per process; the store keeps every command ever sent.
    return this.manager.execute({ ...command, commandId: `${this.run}:${command.commandId}` });
  }

  /** Stops polling at once (the poll under way, if any, finishes): a run whose start failed. */
  stopPolling(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Stops polling, waits for the commands being sent, and polls once more. */
  async dispose(): Promise<void> {
    this.stopPolling();
    await this.loop;
    await this.manager.idle();
    await this.manager.pollOnce().catch((error: unknown) => this.options.onPollError?.(error));
  }
}
