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
import { followSimulatorClock, simulatorClock } from './broker-clock.js';

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

describe('followSimulatorClock', () => {
  /** Waits until `check` holds (every 50 ms, at most `timeoutMs`). */
  async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (check()) return true;
      await sleep(50);
    }
    return check();
  }

  it("takes the simulator's new speed and its jump forward, within a read", async () => {
    const sim = await simulator(1);
    const clock = await simulatorClock(sim.url);
    if (clock === null) throw new Error('no simulator clock');
    const unfollow = followSimulatorClock(sim.url, clock, { everyMs: 100 });
    opened.push(async () => unfollow());
    sim.setSpeed(60);
    expect(await until(() => clock.getSpeed() === 60)).toBe(true);
    // three hours on: the engine clock follows (within the second allowed and the read's way)
    sim.advanceClock(3 * 3_600_000);
    expect(await until(() => Math.abs(clock.nowMs() - sim.now().toMillis()) < 5_000)).toBe(true);
    expect(clock.nowMs()).toBeGreaterThan(Date.parse('2026-11-23T13:00:00+09:00'));
  });

  it("never goes back: a simulator clock set back stops the engine's until it has caught up, said once", async () => {
    const sim = await simulator(60);
    const clock = await simulatorClock(sim.url);
    if (clock === null) throw new Error('no simulator clock');
    const told: number[] = [];
    const unfollow = followSimulatorClock(sim.url, clock, { everyMs: 100, onAhead: (ms) => told.push(ms) });
    opened.push(async () => unfollow());
    const before = clock.nowMs();
    sim.setClock(sim.now().minus({ minutes: 10 }));
    expect(await until(() => clock.getSpeed() === 0)).toBe(true);
    expect(clock.nowMs()).toBeGreaterThanOrEqual(before);
    await sleep(500);
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThan(9 * 60_000);
    // the simulator passes the engine clock again: it runs on at the simulator's speed
    sim.advanceClock(20 * 60_000);
    expect(await until(() => clock.getSpeed() === 60)).toBe(true);
    expect(await until(() => Math.abs(clock.nowMs() - sim.now().toMillis()) < 5_000)).toBe(true);
    expect(told).toHaveLength(1);
  });
});
