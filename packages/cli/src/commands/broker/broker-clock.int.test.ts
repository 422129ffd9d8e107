/**
 * The engine clock `hoga run` and `hoga order` take from the simulator (`GET /_sim/clock`) reads
 * what the simulator's clock reads, however long the answer took. Before, the clock was set to the
 * answer's time as of its arrival: a fast simulator had run on meanwhile (30 ms at speed 30 is
 * 900 simulated ms), so the engine clock lagged, and a tick's `tsInit` (engine) came before its
 * `tsEvent` (simulator).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorClock } from './broker-clock.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A proxy on 127.0.0.1 to `target` that holds each request and each answer `delayMs` (real time). */
async function slowProxy(target: string, delayMs: number): Promise<string> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    void sleep(delayMs).then(() => {
      const out = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            void sleep(delayMs).then(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(chunks));
            });
          });
        },
      );
      req.pipe(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  opened.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function simulator(speed: number): Promise<SimulatorHandle> {
  const sim = await startSimulator({ port: 0, start: '2026-11-23T10:00:00+09:00', speed, rateLimit: false });
  opened.push(() => sim.close());
  return sim;
}

describe('simulatorClock', () => {
  it("reads the simulator's time when its answers take 250 ms each way (speed 30)", async () => {
    const sim = await simulator(30);
    const clock = await simulatorClock(await slowProxy(sim.url, 250));
    expect(clock).not.toBeNull();
    // the engine clock and the simulator's, read side by side: the answer's 250 ms on the way back
    // were a lag of 7,500 simulated ms before; now the error is half the difference between the two
    // ways, which only the machine's own delays make (client, proxy and simulator share this
    // process). Before, the ways took 30 ms and the bound was 300 ms: on a loaded machine those
    // delays alone came to 1,659 ms (1 of 5 runs failed); the bound is now half the old lag.
    const skew = (clock?.nowMs() ?? 0) - sim.now().toMillis();
    expect(Math.abs(skew)).toBeLessThan(3_750);
  });

  it('follows a frozen simulator exactly', async () => {
    const sim = await simulator(0);
    const clock = await simulatorClock(await slowProxy(sim.url, 30));
    expect(clock?.nowMs()).toBe(sim.now().toMillis());
  });

  it('is null when the address does not serve the clock (a broker answers 404)', async () => {
    const broker = createServer((_req, res) => {
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => broker.listen(0, '127.0.0.1', r));
    opened.push(() => new Promise<void>((r) => broker.close(() => r())));
    expect(await simulatorClock(`http://127.0.0.1:${(broker.address() as AddressInfo).port}`)).toBeNull();
  });
});
