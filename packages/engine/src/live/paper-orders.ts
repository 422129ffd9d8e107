/**
 * The paper account's open orders, kept beside its ledger so that a restart puts them back on the
 * simulated venue. The ledger is saved without reservations (they belong to the open orders); the
 * orders are saved with what filled of them, and on restart each is worked again as it stood under
 * the same `clientOrderId` (the venue reserves cash or shares for its rest anew). A DAY order
 * saved in an earlier session than the restart's has ended: it is not put back.
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  type OrderEvent,
  type OrderIntent,
  OrderSizing,
  OrderType,
  type StrategyId,
} from '@hoga/core';
import { sessionKeyOf } from '../venue/session-key.js';

/** One open order as saved in the store (JSON). */
export interface SavedPaperOrder {
  /** The intent as first submitted (decimals as text), its price and quantity as last modified. */
  readonly intent: Readonly<Record<string, unknown>>;
  readonly filledQuantity: string;
  /** Amount filled so far (amount orders), in the order's currency. */
  readonly filledAmount: string;
  /** Session key ({@link paperSession}) of the order's acceptance. */
  readonly session: number;
}

interface OpenOrder {
  intent: OrderIntent;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  session: number;
}

/**
 * The session key paper uses for a DAY order of `symbol`: KR the KST day, US the trading date (see
 * `sessionKeyOf`: a US order placed at 23:45 KST, in the regular session, does not end at KST
 * midnight).
 */
export function paperSession(symbol: string, ms: number): number {
  return sessionKeyOf(symbol, ms);
}

const ENDED = new Set<OrderEvent['type']>(['OrderFilled', 'OrderCanceled', 'OrderExpired', 'OrderRejected']);

/** Follows the paper venue's events and keeps its open orders. */
export class PaperOrders {
  private readonly open = new Map<string, OpenOrder>();

  /**
   * Applies one venue event.
   *
   * @returns whether the open orders changed (to be saved)
   */
  onEvent(event: OrderEvent): boolean {
    const id = event.clientOrderId as string;
    if (event.type === 'OrderAccepted') {
      return false;
    }
    if (event.type === 'OrderSubmitted') {
      this.open.set(id, {
        intent: event.intent,
        filledQuantity: new Decimal(0),
        filledAmount: new Decimal(0),
        session: paperSession(event.intent.instrument.symbol, event.tsEvent),
      });
      return true;
    }
    const order = this.open.get(id);
    if (order === undefined) return false;
    if (ENDED.has(event.type)) {
      this.open.delete(id);
      return true;
    }
    if (event.type === 'OrderPartiallyFilled') {
      order.filledQuantity = event.fill.cumulativeQuantity;
      order.filledAmount = order.filledAmount.plus(event.fill.quantity.times(event.fill.price));
      return true;
    }
    if (event.type === 'OrderModified') {
      order.intent = {
        ...order.intent,
        ...(event.price === undefined ? {} : { price: event.price }),
        ...(event.quantity === undefined ? {} : { quantity: event.quantity }),
      } as OrderIntent;
      return true;
    }
    return false;
  }

  /** Keeps an order worked again after a restart (no `OrderSubmitted` comes for it). */
  restore(order: RestoredPaperOrder): void {
    this.open.set(order.intent.clientOrderId, {
      intent: order.intent,
      filledQuantity: order.filledQuantity,
      filledAmount: order.filledAmount,
      session: order.session,
    });
  }

  /** The open orders: id and strategy. */
  openOrders(): { readonly clientOrderId: ClientOrderId; readonly strategyId: StrategyId }[] {
    return [...this.open.values()].map((o) => ({
      clientOrderId: o.intent.clientOrderId,
      strategyId: o.intent.strategyId ?? ('manual' as StrategyId),
    }));
  }

  /** The open orders, to save. */
  snapshot(): SavedPaperOrder[] {
    return [...this.open.values()].map((o) => ({
      intent: JSON.parse(JSON.stringify(o.intent)) as Record<string, unknown>,
      filledQuantity: o.filledQuantity.toFixed(),
      filledAmount: o.filledAmount.toFixed(),
      session: o.session,
    }));
  }
}

/** A saved order to work again: the order as it stood, with what filled of it. */
export interface RestoredPaperOrder {
  readonly strategyId: StrategyId;
  /** The intent as first submitted, its price and quantity as last modified (same `clientOrderId`). */
  readonly intent: OrderIntent;
  readonly filledQuantity: Decimal;
  /** Amount filled so far (amount orders). */
  readonly filledAmount: Decimal;
  /** Its session key ({@link paperSession}). */
  readonly session: number;
}

/**
 * The saved orders still alive in `session`, each as it stood: its intent (whole quantity or
 * amount) and what filled of it. Orders of an earlier session (DAY orders end with their session)
 * and fully filled ones are left out. Before, each was given back as the intent of its unfilled part
 * only, and a strategy saw a partly filled order come back as a new order of the rest.
 *
 * @param saved - what {@link PaperOrders.snapshot} saved (or undefined)
 * @param nowMs - the instant now (each order's session key now is its symbol's, {@link paperSession})
 */
export function restorablePaperOrders(saved: unknown, nowMs: number): RestoredPaperOrder[] {
  const restored: RestoredPaperOrder[] = [];
  if (!Array.isArray(saved)) return restored;
  for (const s of saved as SavedPaperOrder[]) {
    const raw = s.intent;
    const id = String(raw.clientOrderId);
    const symbol = String((raw.instrument as { symbol?: unknown } | undefined)?.symbol ?? '');
    if (s.session !== paperSession(symbol, nowMs)) continue;
    const amount = raw.sizing === OrderSizing.AMOUNT;
    const filledQuantity = new Decimal(s.filledQuantity);
    const filledAmount = new Decimal(s.filledAmount);
    const whole = new Decimal(String(amount ? raw.amount : raw.quantity));
    if (whole.minus(amount ? filledAmount : filledQuantity).lte(0)) continue;
    const intent = Object.freeze({
      ...raw,
      clientOrderId: id as ClientOrderId,
      ...(amount ? { amount: whole } : { quantity: whole }),
      ...(raw.orderType === OrderType.LIMIT && raw.price != null
        ? { price: new Decimal(String(raw.price)) }
        : {}),
    }) as unknown as OrderIntent;
    restored.push({
      strategyId: String(raw.strategyId ?? 'manual') as StrategyId,
      intent,
      filledQuantity,
      filledAmount,
      session: s.session,
    });
  }
  return restored;
}
