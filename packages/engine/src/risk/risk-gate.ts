/**
 * The risk gate every order command passes before it reaches a venue. A denial is a verdict (and,
 * for the strategy, an `OrderDenied` event with the same code), never an exception.
 *
 * @module
 */
import type { OrderCommand } from '../commands/order-commands.js';

/** The gate's answer: accepted, or denied with the broker's error code where one applies. */
export type RiskVerdict =
  | { readonly accepted: true }
  | {
      readonly accepted: false;
      /** The broker's error code for broker rules (`insufficient-buying-power`, …), or hoga's own guard code. */
      readonly code: string;
      /** One sentence saying what was wrong. */
      readonly reason: string;
      /** The hint the broker would give, or the guard's details (cap, when it frees, …). */
      readonly data?: Readonly<Record<string, unknown>>;
    };

/** Token of {@link RiskGate} (a `Symbol` beside the same-named interface). */
export const RiskGate = Symbol.for('hoga.engine.RiskGate');

/** Checks order commands. */
export interface RiskGate {
  /** The verdict for `command` against the engine's current view (portfolio, open orders, market). */
  check(command: OrderCommand): RiskVerdict;
  /**
   * Brings the view `check` reads up to date for `command` (buying power and sellable quantity
   * re-read from the broker when older than the configured age, market data for its symbol). Call
   * it, and await it, before {@link RiskGate.check} where the mode can wait (live, paper, the CLI);
   * a gate that needs nothing leaves it out. It returns `undefined` when there is nothing to
   * refresh for this command (a gate without a broker, e.g. a backtest's): the caller may then
   * check at once, synchronously, with no promise made.
   */
  prepare?(command: OrderCommand): Promise<void> | undefined;
}

/** The placeholder gate: accepts everything. Replaced by the risk module in every mode. */
export class PassThroughRiskGate implements RiskGate {
  /** Always accepts. */
  check(_command: OrderCommand): RiskVerdict {
    return { accepted: true };
  }
}
