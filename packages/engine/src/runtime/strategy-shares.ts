/**
 * A strategy sells only the shares it bought. Its positions are built from its own fills; the
 * account also holds the shares of the run's other strategies and, live, shares bought elsewhere.
 * So a sell of a strategy must fit in its own position less what its open sells still sell. A
 * strategy that means to sell the account's shares says so on the order (`fromAccount: true`): its
 * sell may then also take the account's shares that no strategy of the run holds, nor another's
 * open `fromAccount` sell already takes (never another strategy's). A modify that raises a sell's quantity is judged the same way. A sell of more than
 * the account holds is left to the broker's rule (the risk gate and the venue refuse it with the
 * broker's code, as live hears it).
 *
 * @module
 */
import { Decimal, type OrderIntent } from '@hoga/core';
import type { ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import type { AccountView, OrderView } from '../strategy/strategy-context.js';

const ZERO = new Decimal(0);

/** What a strategy's sell is judged against: its position and its open sells' rest in a symbol. */
export interface ShareHolder {
  readonly strategyId: string;
  /** The strategy's own position in `symbol` (0 when flat). */
  heldQuantity(symbol: string): Decimal;
  /** What the strategy's open sells of `symbol` other than `exceptId` still sell. */
  openSellRest(symbol: string, exceptId: string): Decimal;
}

/**
 * Why a sell of `quantity` does not fit in the strategy's shares, or null when it fits.
 *
 * @param own - the strategy's position
 * @param selling - what its other open sells still sell
 * @param external - with `fromAccount`, the account's shares no strategy of the run holds or sells; else null
 */
export function sharesShortfall(
  symbol: string,
  quantity: Decimal,
  own: Decimal,
  selling: Decimal,
  external: Decimal | null,
): string | null {
  const available = own.minus(selling).plus(external ?? ZERO);
  if (quantity.lte(available)) return null;
  const start = `the sell of ${quantity.toFixed()} ${symbol} is more than the strategy's own ${own.toFixed()} less ${selling.toFixed()} held by its open sells`;
  return external === null
    ? `${start} (fromAccount: true sells the account's shares)`
    : `${start} and the account's ${external.toFixed()} that no strategy of the run holds or sells`;
}

/** The share checks of a run's strategies. */
export class StrategyShares {
  /** Orders placed with `fromAccount` (a modify of one may take the account's shares too). */
  private readonly fromAccount = new Set<string>();

  /**
   * @param holders - the run's strategies
   * @param account - the account's holdings
   */
  constructor(
    private readonly holders: readonly ShareHolder[],
    private readonly account: () => AccountView,
  ) {}

  /**
   * Why a strategy's sell does not fit in its shares (a submit, or a modify raising a sell's
   * quantity: `order`, the order it modifies); null when it fits, or is neither.
   *
   * @param fromAccount - the submit asked for the account's shares too
   */
  shortfall(
    command: SubmitOrder | ModifyOrder,
    holder: ShareHolder,
    fromAccount: boolean,
    order?: OrderView,
  ): string | null {
    if (command.type === 'SubmitOrder') {
      const intent: OrderIntent = command.intent;
      if (intent.side !== 'SELL' || intent.sizing !== 'QUANTITY') return null;
      if (fromAccount) this.fromAccount.add(intent.clientOrderId);
      return this.judge(holder, intent.instrument.symbol, intent.quantity, intent.clientOrderId);
    }
    if (order === undefined || order.side !== 'SELL' || command.quantity === undefined) return null;
    // a modify's quantity is the new rest: judged only when it sells more than the rest did
    const rest = order.quantity === null ? ZERO : order.quantity.minus(order.filledQuantity);
    if (command.quantity.lte(rest)) return null;
    return this.judge(holder, order.symbol, command.quantity, order.clientOrderId);
  }

  private judge(holder: ShareHolder, symbol: string, quantity: Decimal, orderId: string): string | null {
    const own = holder.heldQuantity(symbol);
    const selling = holder.openSellRest(symbol, orderId);
    // the common case: the strategy holds enough, with no look at the account
    if (quantity.lte(own.minus(selling))) return null;
    const account =
      this.account()
        .holdings()
        .find((h) => h.symbol === symbol)?.quantity ?? ZERO;
    // the account itself holds too few: the broker's rule refuses the sell, with the broker's code
    // (the risk gate's, or the venue's), as live would hear it
    if (quantity.gt(account)) return null;
    const external = this.fromAccount.has(orderId) ? this.unheld(symbol, account, holder) : null;
    return sharesShortfall(symbol, quantity, own, selling, external);
  }

  /**
   * The account's shares of `symbol` (`account` of them) that no strategy of the run holds, less
   * what the other strategies' open sells take of them past their own positions (their
   * `fromAccount` sells'), 0 or more: `holder`'s own open sells are its `selling`.
   */
  private unheld(symbol: string, account: Decimal, holder: ShareHolder): Decimal {
    let theirs = ZERO;
    for (const h of this.holders) {
      const held = h.heldQuantity(symbol);
      theirs = theirs.plus(held);
      if (h === holder) continue;
      const taking = h.openSellRest(symbol, '').minus(held);
      if (taking.gt(ZERO)) theirs = theirs.plus(taking);
    }
    return Decimal.max(ZERO, account.minus(theirs));
  }
}
