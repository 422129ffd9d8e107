/**
 * `ctx.marketOrderAllowed` in paper and live answers from the broker's market calendar, the one
 * the risk module judges orders by: a closure the broker announces that the broker model's static
 * table does not know (Monday 2026-11-23, a weekday it holds open) answers false, as the risk
 * module refuses a market order then (`order-hours-closed`). Before, it answered true by the static
 * table, and a strategy that asked before ordering sent a market order the risk module denied.
 *
 * Over the simulator on 127.0.0.1 (its clock at × 60), reached through a forwarder that answers
 * the KR calendar as a broker announcing the closure would (the day's hours null); every other
 * request goes to the simulator as it is. A run without the closure answers true and its market
 * order is accepted (the answer is not simply false). A run after 2027, whose dates the simulator
 * gives no calendar for (400 `unsupported-date`), answers false: the risk module denies every order
 * then (`risk-market-data-missing`), which the static table, open every weekday, did not know.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrokerClient } from '@hoga/connector';
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  KR_OPEN,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The weekday the broker closes: Monday of {@link KR_OPEN}, open in the broker model's table. */
const CLOSED_DAY = '2026-11-23';

/**
 * An HTTP forwarder to `upstream` whose KR calendar answers give {@link CLOSED_DAY} no hours
 * when `closing` (a broker announcing an ad-hoc closure); closed by `closers`. Answers its URL.
 */
async function forwarder(upstream: string, closing: boolean): Promise<string> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const calendar = closing && (req.url ?? '').startsWith('/api/v1/market-calendar/KR');
    const headers = { ...req.headers };
    if (calendar) delete headers['accept-encoding'];
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        if (!calendar || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            result: Record<string, { date: string; integrated: unknown }>;
          };
          for (const day of Object.values(body.result)) if (day.date === CLOSED_DAY) day.integrated = null;
          const text = JSON.stringify(body);
          const { 'content-length': _length, ...rest } = answer.headers;
          res.writeHead(200, { ...rest, 'content-length': Buffer.byteLength(text) });
          res.end(text);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.add(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the strategy of a run saw: its answers, one a minute of the engine clock. */
const answers: boolean[] = [];

/**
 * Asks `ctx.marketOrderAllowed('005930')` once a minute (a timer: a closed market hands over no
 * bars) and buys one share at market on the first answer of true, as `sma-crossover.ts` does.
 */
class AsksFirst extends Strategy {
  private bought = false;
  override onStart(): void {
    this.ctx.setTimer('ask', { at: this.ctx.now() + 1_000, every: 60_000 });
  }
  override onTimer(): void {
    const allowed = this.ctx.marketOrderAllowed('005930');
    answers.push(allowed);
    if (allowed && !this.bought) {
      this.bought = true;
      this.ctx.buy('005930', 1);
    }
  }
}

/**
 * Runs {@link AsksFirst} in `mode` on 005930 from `start` (default {@link KR_OPEN}) until it has
 * answered 3 times.
 */
async function runAsking(
  mode: 'paper' | 'live',
  closing: boolean,
  start = KR_OPEN,
): Promise<readonly OrderEvent[]> {
  answers.length = 0;
  const s = await startSimulatedBroker(closers, { speed: 60, rateLimit: false, start });
  const url = await forwarder(s.sim.url, closing);
  const client = new BrokerClient({
    clock: s.clock,
    config: { baseUrl: url, clientId: 'sim-client', clientSecret: 'sim-secret' },
  });
  closers.add(() => client.close());
  const db = openTempDb(closers, 'hoga-market-order-calendar-', s.clock);
  const { handle, events } = await startTestRun(
    { client, clock: s.clock, db },
    {
      runId: `closure-${mode}`,
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: AsksFirst }],
    },
    { pollIntervalMs: 200 },
  );
  closers.add(() => handle.stop());
  await until(() => answers.length >= 3, 60_000);
  // the market order placed on an answer of true: accepted or denied
  if (answers.includes(true))
    await until(() => events.some((e) => e.type === 'OrderAccepted' || e.type === 'OrderDenied'));
  return events;
}

describe('ctx.marketOrderAllowed in paper and live: the broker calendar the risk module reads', () => {
  it.each(['paper', 'live'] as const)(
    '%s: a weekday the broker closes (unknown to the static table) answers false; no market order is denied',
    async (mode) => {
      const events = await runAsking(mode, true);
      expect(answers.slice(0, 3)).toEqual([false, false, false]);
      const denied = events.flatMap((e) => (e.type === 'OrderDenied' ? [`${e.code}: ${e.reason}`] : []));
      expect(denied).toEqual([]);
    },
  );

  it('paper, after 2027 (the broker gives no calendar for the date): answers false, as the risk module denies then', async () => {
    // Tuesday 2028-01-04 10:00 KST: a regular session by the static table, which knows no day
    // after 2027; the simulator answers its calendar 400 unsupported-date
    const events = await runAsking('paper', false, '2028-01-04T10:00:00+09:00');
    expect(answers.slice(0, 3)).toEqual([false, false, false]);
    expect(events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });

  it('paper: the same hours with the broker open answer true, and the market order is accepted', async () => {
    const events = await runAsking('paper', false);
    expect(answers[0]).toBe(true);
    expect(events.map((e) => e.type)).toContain('OrderAccepted');
    expect(events.map((e) => e.type)).not.toContain('OrderDenied');
  });
});
