/**
 * Order bodies of the conformance error tables: limit orders of 005930 (Samsung Electronics, KRW)
 * at a price the test picked, or at its lower price limit for a value in won. Test code only.
 */
import { Decimal } from '@hoga/core';
import { limits } from './conformance-kit.js';
import type { Json, SimResponse, TestClient } from './sim-client.js';

/** The body of a limit order of `quantity` 005930 at `price`, with `more` fields (a clientOrderId, a flag). */
export function krLimit(
  side: 'BUY' | 'SELL',
  quantity: string,
  price: Decimal | string,
  more: Json = {},
): Json {
  const at = typeof price === 'string' ? price : price.toFixed();
  return { symbol: '005930', side, orderType: 'LIMIT', quantity, price: at, ...more };
}

/**
 * Places a limit buy of 005930 at its lower price limit of the fewest shares worth at least `krw`
 * won, with `more` fields.
 */
export async function krLowerLimitBuyWorth(
  client: TestClient,
  krw: number,
  more: Json = {},
): Promise<SimResponse> {
  const { lower } = await limits(client, '005930');
  const quantity = new Decimal(krw).div(lower).ceil().toFixed();
  return client.post('/api/v1/orders', krLimit('BUY', quantity, lower, more));
}
