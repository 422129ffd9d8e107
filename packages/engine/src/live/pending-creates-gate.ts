/**
 * The risk gates of paper and live with their commands noted as they are given and forgotten as
 * they are judged ({@link PendingCreates}): a create, modify or cancel a kill left unjudged is
 * settled at the next start.
 *
 * @module
 */
import type { OrderCommand } from '../commands/order-commands.js';
import type { RiskGate, RiskVerdict } from '../risk/risk-gate.js';
import type { PendingCreates } from './pending-creates.js';

/** What a gate notes its commands in (live's {@link PendingCreates}, paper's). */
export type NotedCommands = Pick<PendingCreates, 'note' | 'judged' | 'noteChange' | 'judgedChange'>;

/**
 * Notes `command` as given, then answers `prepare`'s refresh; a change whose refresh fails is
 * forgotten, as its refusal (`risk-unavailable`) is told now, without a check.
 */
export function prepareNoted(
  creates: NotedCommands | undefined,
  command: OrderCommand,
  prepare: () => Promise<void> | undefined,
): Promise<void> | undefined {
  if (creates === undefined) return prepare();
  if (command.type === 'SubmitOrder') {
    creates.note(command);
    return prepare();
  }
  creates.noteChange(command);
  let prepared: Promise<void> | undefined;
  try {
    prepared = prepare();
  } catch (error) {
    creates.judgedChange(command);
    throw error;
  }
  return prepared?.catch((error: unknown) => {
    creates.judgedChange(command);
    throw error;
  });
}

/** `command` judged now: a create forgotten in memory (its row is written in this step), a change in the store too. */
export function judgedNow(creates: NotedCommands | undefined, command: OrderCommand): void {
  if (command.type === 'SubmitOrder') creates?.judged(command.intent.clientOrderId);
  else creates?.judgedChange(command);
}

/**
 * A run's risk gate with its creates noted as they are given ({@link PendingCreates.note}, in
 * `prepare`, before `ctx.submit` hands the id back) and forgotten as they are judged (`check`, the
 * step in which their row is written). Live's: paper's `PaperStoreGate` does the same beside its own
 * refusals.
 */
export class PendingCreatesGate implements RiskGate {
  /**
   * @param gate - the risk module's gate
   * @param creates - where the creates given and not yet judged are noted
   */
  constructor(
    private readonly gate: RiskGate,
    private readonly creates: NotedCommands,
  ) {}

  /** Notes a create, modify or cancel (synchronously), then the gate's own refresh. */
  prepare(command: OrderCommand): Promise<void> | undefined {
    return prepareNoted(this.creates, command, () => this.gate.prepare?.(command));
  }

  /** The gate's verdict; the command is judged now (a create's row, or its denial's, written in this step). */
  check(command: OrderCommand): RiskVerdict {
    judgedNow(this.creates, command);
    return this.gate.check(command);
  }
}
