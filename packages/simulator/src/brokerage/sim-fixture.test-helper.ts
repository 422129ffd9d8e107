/**
 * Brokerage unit-test fixture on the real simulated market (seed 7) and a
 * virtual clock. Test-only; not exported by the package.
 */
import { VirtualClock } from '@hoga/core';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { Brokerage } from './brokerage.js';

/** Monday 2026-11-23 10:00 KST: KR regular session, US day market. */
export const KR_MORNING = '2026-11-23T10:00:00+09:00';
/** Tuesday 00:30 KST = Monday 10:30 New York: US regular session. */
export const US_NIGHT = '2026-11-24T00:30:00+09:00';

/** A brokerage on a fresh seed-7 market at `at`. */
export function simSetup(at = KR_MORNING) {
  const clock = new VirtualClock(at);
  const market = new SimMarket({ seed: 7, clock });
  const brokerage = new Brokerage({ market, clock, seed: 7 });
  return { clock, market, brokerage };
}

/** The SimApiError a promise rejects with (fails the test otherwise). */
export async function failure(promise: Promise<unknown>): Promise<SimApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SimApiError)) throw new Error(`expected a SimApiError, got ${String(error)}`);
  return error;
}

/** An order record as tests read it. */
export interface OrderView {
  orderId: string;
  status: string;
  quantity: string;
  price: string | null;
  orderAmount: string | null;
  canceledAt: string | null;
  execution: {
    filledQuantity: string;
    averageFilledPrice: string | null;
    filledAmount: string | null;
    commission: string | null;
    tax: string | null;
    filledAt: string | null;
    settlementDate: string | null;
  };
}

/** The record of an order of account 1 (or another). */
export function orderView(brokerage: Brokerage, orderId: string, account = 1): OrderView {
  return brokerage.orderDetail(account, orderId) as OrderView;
}

/** Creates an order and returns its id. */
export async function place(brokerage: Brokerage, body: object, account = 1): Promise<string> {
  return ((await brokerage.createOrder(account, body)) as { orderId: string }).orderId;
}
