/**
 * The order manager's tunables, its background-read priority, and how it classifies failed
 * commands (ambiguous: the broker may have taken it; else a refusal).
 *
 * @module
 */
import {
  BrokerApiError,
  ConflictError,
  DEFAULT_SEND_SKEW_MS,
  NetworkError,
  NetworkFailure,
  RateLimitError,
  RequestPriority,
  ResponseShapeError,
  ServerError,
} from '@hoga/connector';
import { BrokerOrderStatus } from '@hoga/core';

/**
 * The code of a command refused because the store refuses writes (full, locked past the busy
 * timeout, an I/O error): live, a modify or cancel whose row could not be written before its send
 * (it is not sent); paper, a create or modify while the paper store refuses writes.
 */
export const STORE_UNAVAILABLE = 'store-unavailable';

/** The reason of a {@link STORE_UNAVAILABLE} refusal: what was not sent, and the store's error. */
export function storeRefused(what: 'order' | 'modify' | 'cancel', error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `the ${what} was not sent: the store refuses writes (${why})`;
}

/**
 * The code of a create refused before it is sent because its `clientOrderId` names an order the
 * store holds already (or one this process is sending): the store keeps one order per id.
 */
export const ID_TAKEN = 'client-order-id-used';

/** Tunables of {@link OrderManager}. */
export interface OrderManagerOptions {
  /** The broker's `clientOrderId` window (default 10 minutes). */
  readonly clientOrderIdWindowMs?: number;
  /** Stop re-sending a create this long before its window ends (default 30 s). */
  readonly windowMarginMs?: number;
  /**
   * An unsettled command is declared unknown, and an open order whose detail the broker answers
   * 404 for is ended (`not-found-at-broker`), after this long on the engine clock... (default 120 s)
   */
  readonly unknownAfterMs?: number;
  /** ...and at least this many checks, or 404 reads (default 5). */
  readonly minChecks?: number;
  /** Closed pages read per poll (default 2). */
  readonly maxClosedPages?: number;
  /** Order details read per poll (default 3). */
  readonly maxDetailReads?: number;
  /** Tolerated difference between our clock and the broker's `orderedAt` (default 2 s). */
  readonly skewMs?: number;
  /**
   * While a symbol is barred (its position differed from the holdings), a poll compares it with
   * the holdings again at most this often on the engine clock, and frees it once they match
   * (default 10 s).
   */
  readonly barredRecheckMs?: number;
  /**
   * While running, a complete poll compares the positions with the broker's holdings at most this
   * often on the engine clock (default 60 s), the symbols with no command unsettled and no open
   * broker order the poll's lists did not show booked; one that differs at one check and again after
   * the next complete poll, with nothing booked for it in between or by the same quantity, is
   * reported and barred as at a start (`RunningPositionCheck`). 0 turns the check off.
   */
  readonly positionCheckMs?: number;
  /**
   * A modify or cancel the broker refused because its target was modified meanwhile
   * (`already-modified`) or is being modified or cancelled (`already-processing`), by another
   * process on the same store (`hoga order`, another engine) or by this one, waits at most this
   * many real ms for the logical order's newer broker order to be stored, then is sent again to it
   * (default 5,000).
   */
  readonly newestOrderWaitMs?: number;
  /**
   * How a command is written before it is sent: `normal` (default) survives a process crash (the
   * WAL write is in the OS before the request leaves), not an OS crash or power loss; `full` fsyncs
   * it (survives power loss). See docs/order-manager.md, "Durability".
   */
  readonly commandDurability?: 'full' | 'normal';
  /**
   * Run the store's WAL checkpoints on a timer every this many ms, between events, instead of
   * inside the commit that crosses SQLite's 1,000-page mark (one command write in a few hundred
   * paid for it: the p99 of event → request). Default 1,000; 0 keeps SQLite's automatic ones.
   */
  readonly checkpointEveryMs?: number;
  /**
   * The strategy ids the process of this manager runs (a live run's; none for `hoga order`, the
   * default). An order of a strategy another live run on the store holds a lease for is left to
   * that run: its reports are not counted here (see `OrderOwnership`).
   */
  readonly strategies?: readonly string[];
  /**
   * Told of each timed WAL checkpoint that failed (a full disk, an I/O error): the commits stay
   * in the WAL and the next tick tries again; the run goes on. Default: nothing.
   */
  readonly onCheckpointError?: ((error: unknown) => void) | undefined;
}

/** {@link OrderManagerOptions} with their defaults, as the manager keeps them. */
export type ManagerSettings = Required<Omit<OrderManagerOptions, 'onCheckpointError' | 'strategies'>>;

/** The tunables given, each missing one at its default (see {@link OrderManagerOptions}). */
export function withDefaults(options: OrderManagerOptions): ManagerSettings {
  return {
    clientOrderIdWindowMs: options.clientOrderIdWindowMs ?? 600_000,
    windowMarginMs: options.windowMarginMs ?? 30_000,
    unknownAfterMs: options.unknownAfterMs ?? 120_000,
    minChecks: options.minChecks ?? 5,
    maxClosedPages: options.maxClosedPages ?? 2,
    maxDetailReads: options.maxDetailReads ?? 3,
    skewMs: options.skewMs ?? DEFAULT_SEND_SKEW_MS,
    barredRecheckMs: options.barredRecheckMs ?? 10_000,
    positionCheckMs: options.positionCheckMs ?? 60_000,
    newestOrderWaitMs: options.newestOrderWaitMs ?? 5_000,
    commandDurability: options.commandDurability ?? 'normal',
    checkpointEveryMs: options.checkpointEveryMs ?? 1_000,
  };
}

/** The broker's `clientOrderId` window, and the margin before its end where re-sending stops. */
export interface ResendWindow {
  readonly clientOrderIdWindowMs: number;
  readonly windowMarginMs: number;
}

/**
 * Whether an unsettled command is a create that is re-sent under its key (inside its window, less
 * the margin): the broker's answer, or its replay, then names the order it made. Past it, and for
 * modifies and cancels, the outcome is looked for in the history instead.
 */
export function resendsCreate(
  command: { readonly kind: string; readonly sentAt: number },
  nowMs: number,
  window: ResendWindow,
): boolean {
  return (
    command.kind === 'create' && nowMs < command.sentAt + window.clientOrderIdWindowMs - window.windowMarginMs
  );
}

/** Background reads queue behind the strategy's own reads (the ORDER_HISTORY budget is shared). */
export const POLL = { priority: RequestPriority.POLL } as const;

/** Whether a failed command may have reached the broker (its outcome is then looked for). */
export function ambiguous(error: unknown): boolean {
  if (error instanceof NetworkError) return error.failure !== NetworkFailure.ABORTED;
  if (error instanceof ConflictError) return error.code === 'request-in-progress';
  return (
    error instanceof ServerError || error instanceof ResponseShapeError || error instanceof RateLimitError
  );
}

/** The broker's code of a failure, or the error's name. */
export function codeOf(error: unknown): string {
  return error instanceof BrokerApiError ? error.code : error instanceof Error ? error.name : 'error';
}

/** The broker's 409 code for a modify or cancel of an order it shows ended in that status. */
const ENDED_ORDER_CODES: ReadonlyMap<string, string> = new Map([
  [BrokerOrderStatus.FILLED, 'already-filled'],
  [BrokerOrderStatus.CANCELED, 'already-canceled'],
  [BrokerOrderStatus.REJECTED, 'already-rejected'],
  [BrokerOrderStatus.REPLACED, 'already-modified'],
]);

/**
 * The code of a modify or cancel refused because the engine found its target ended, without the
 * broker's answer (lost, or the change not sent to a newer broker order found ended): the code the
 * broker answers the same request with for that status (`already-filled`, `already-canceled`,
 * `already-rejected`; `already-modified` for `REPLACED`, when the change could not be followed to
 * the replacement), so a strategy sees one code whether or not an answer was lost; `order-closed`
 * for any other ended status (`CANCEL_REJECTED`, `REPLACE_REJECTED`, an order the broker no longer
 * has).
 */
export function endedOrderCode(status: string): string {
  return ENDED_ORDER_CODES.get(status) ?? 'order-closed';
}
