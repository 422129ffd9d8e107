// The example of packages/connector/README.md, word for word (a test checks both and runs this).
// It starts its own simulator on a Monday at 10:00 KST and gives the client the same clock, so the
// streams see an open market on any day it is run; it ends by itself.
import { BrokerClient, BrokerStreams, MemoryTokenCache } from '@hoga/connector';
import { Decimal, newClientOrderId, ScaledClock } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';

const start = '2026-11-23T10:00:00+09:00'; // a Monday, the KR market open
const sim = await startSimulator({ port: 0, start });
const client = new BrokerClient({
  config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  tokenCache: new MemoryTokenCache(),
  clock: new ScaledClock({ start }), // the simulator's time, not this machine's
});
const streams = new BrokerStreams(client);

// Three order-book updates, then the subscription ends.
const books = await new Promise<Decimal[]>((resolve) => {
  const seen: Decimal[] = [];
  const sub = streams.orderbook$('005930').subscribe((book) => {
    seen.push(book.asks[0]!.price);
    if (seen.length === 3) {
      sub.unsubscribe();
      resolve(seen);
    }
  });
});
console.log('best asks:', books.map((price) => price.toFixed()).join(', '));

// One limit order at the best ask, followed through orderUpdates$ until it fills.
const clientOrderId = newClientOrderId('demo');
const filled = new Promise<string>((resolve) => {
  const sub = streams.orderUpdates$().subscribe((event) => {
    if (event.type === 'OrderFilled' && event.clientOrderId === clientOrderId) {
      sub.unsubscribe();
      resolve(`${event.type} ${clientOrderId}`);
    }
  });
});
await client.createOrder({
  symbol: '005930',
  side: 'BUY',
  orderType: 'LIMIT',
  quantity: new Decimal(1),
  price: books.at(-1)!,
  clientOrderId,
});
console.log('order:', await filled);

client.close();
await sim.close();
