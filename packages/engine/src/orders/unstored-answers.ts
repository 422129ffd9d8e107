/**
 * The commands whose broker answer the store could not take (a write failed: the file locked by
 * another process past the busy timeout), kept until it can: each poll marks them ambiguous, to be
 * looked for like a lost answer, after writing the rows of a create sent without them.
 *
 * @module
 */
import type { CommandAnswers } from './command-answers.js';
import type { OrderManager } from './order-manager.js';
import { CommandStatus, type StoredCommand } from './order-manager-store.js';

/** A create sent whose rows the store refused, until they are written. */
interface UnstoredCreate {
  /** Writes the rows (and tells the strategy of its order). */
  readonly record: () => void;
  readonly clientOrderId: string;
  /** What the store answered. */
  readonly reason: string;
  /** The broker's order id, once its answer came. */
  brokerOrderId: string | null;
}

/** See the module description. */
export class UnstoredAnswers {
  /** Commands whose answer the store could not take, and why: marked ambiguous once it can. */
  private readonly ids = new Map<string, string>();
  /**
   * Creates sent whose rows (the command's, the logical order's) the store could not take, by
   * command id: what writes them (and tells the strategy of its order), tried at each poll; why the
   * store refused them, and the broker's order id once its answer came.
   */
  private readonly creates = new Map<string, UnstoredCreate>();

  /**
   * @param m - the order manager (store, clock)
   * @param answers - tells whether a command is settled
   */
  constructor(
    private readonly m: OrderManager,
    private readonly answers: CommandAnswers,
  ) {}

  /**
   * A create sent whose rows the store refused: `record` writes them, at the next poll that can.
   *
   * @param error - what the store answered
   */
  createRows(commandId: string, clientOrderId: string, record: () => void, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.creates.set(commandId, { record, clientOrderId, reason, brokerOrderId: null });
  }

  /** The broker's answer to a create whose rows the store refused: the order it placed. */
  createAnswered(commandId: string, brokerOrderId: string): void {
    const create = this.creates.get(commandId);
    if (create !== undefined) create.brokerOrderId = brokerOrderId;
  }

  /**
   * A create of `clientOrderId` this process sent whose rows the store refused and has not written
   * yet: why, and the broker's order id when its answer came (`hoga order` says so, rather than that
   * the answer did not arrive). A scan: such creates are the store's failures, a handful at most.
   */
  unstoredCreate(clientOrderId: string): { reason: string; brokerOrderId: string | null } | undefined {
    for (const c of this.creates.values()) {
      if (c.clientOrderId === clientOrderId) return { reason: c.reason, brokerOrderId: c.brokerOrderId };
    }
    return undefined;
  }

  /**
   * The broker's answer came, but the store could not take it: the order may be working at the
   * broker, so the command is not settled on this failure, as the broker's refusal would be, but
   * marked to be looked for like a lost answer (a create re-sent under its key, whose replay names
   * the order); while the store stays locked, each poll tries again ({@link UnstoredAnswers.mark}).
   * Before, the store's error settled the command `rejected` and the order `REJECTED`, and the
   * broker's order was adopted as an external one with its fills.
   */
  add(stored: StoredCommand, error: unknown): void {
    this.ids.set(stored.commandId, `store: ${error instanceof Error ? error.message : String(error)}`);
    this.mark();
  }

  /**
   * Marks the commands whose answer the store could not take as ambiguous, once it can (each poll,
   * before it reads the orders). A create whose rows could not be written when it was sent gets
   * them first, and is then looked for like a lost answer. Before, its rows waited in the command
   * journal for the next start: `hoga db orders` did not show the order working at the broker, the
   * strategy never heard of it, and the next poll adopted it as an order from another channel.
   */
  mark(): void {
    for (const [commandId, create] of this.creates) {
      try {
        create.record();
        this.creates.delete(commandId);
      } catch {
        // still locked: the next poll tries again
      }
    }
    for (const [commandId, why] of this.ids) {
      if (this.creates.has(commandId)) continue;
      try {
        if (!this.answers.settled(commandId)) {
          this.m.store.settleCommand(commandId, CommandStatus.AMBIGUOUS, this.m.clock.nowMs(), {
            error: why,
          });
        }
        this.ids.delete(commandId);
      } catch {
        // still locked: the next poll tries again
      }
    }
  }
}
