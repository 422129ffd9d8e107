/**
 * What a live strategy started again is told of its orders, and what the sessions count of it: the
 * order of a fill or end told at the start is known to `ctx.order(id)` as it is told (before, it
 * was `undefined` there: the open orders were tracked again only after the telling), its fills
 * counted once; a session's stored trades, its status line's fills and its refused orders are of
 * its own strategies' orders of this session (before, an engine counting another strategy's fill
 * stored it among its own trades, and a rejection told at the start counted as the new session's
 * refusal). The real `hoga` as child processes, the simulator over HTTP, a real SQLite file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSessions, PART, REST, Session, waitFor } from './run-killed.test-helper.js';
import { exitedWithin, hogaToEnd, type Running } from './run-process.test-helper.js';

afterEach(closeSessions);

/** A stored session as `hoga db runs --kind live --json` lists it. */
interface StoredSession {
  readonly runId: string;
  readonly strategy: string;
  /** Null for a session killed outright. */
  readonly stats: { trades: number; refused?: Record<string, number> } | null;
}

/** The stored live sessions that ended (a killed one has no statistics), of `strategy`. */
async function endedSessions(s: Session, strategy: string): Promise<StoredSession[]> {
  const sessions = await s.hoga<StoredSession[]>(['db', 'runs', '--kind', 'live']);
  return sessions.filter((x) => x.strategy === strategy && x.stats !== null);
}

/** What `hoga db runs --id RUN --json` stores of a session: its trades, and each strategy's part. */
async function storedRun(
  s: Session,
  runId: string,
): Promise<{ trades: unknown[]; parts: [string, number][] }> {
  const run = await s.hoga<{
    trades: unknown[];
    stats: { byStrategy?: { strategyId: string; trades: number }[] } | null;
  }>(['db', 'runs', '--id', runId]);
  return { trades: run.trades, parts: (run.stats?.byStrategy ?? []).map((p) => [p.strategyId, p.trades]) };
}

async function stopped(run: Running): Promise<string> {
  run.child.kill('SIGTERM');
  expect(await exitedWithin(run, 60_000), run.out.join('')).toBe(0);
  return run.out.join('');
}

/** The fills count of each status line the run printed. */
function statusFills(out: string): number[] {
  return [...out.matchAll(/\| fills (\d+) \|/g)].map((m) => Number(m[1]));
}

describe('hoga run --mode live started again: what it is told of its orders', () => {
  it('a fill another engine counted: the order known as it ended, the fill in no other session', async () => {
    const s = await Session.open();
    const rest = await s.restThenKill();

    // another strategy's engine on the store counts the fill of the strategy that is down
    const other = s.run(2, { place: [] }, 'Other');
    await waitFor('the other run going', () => /holdings:/.test(other.out.join('')));
    s.sim.setPrice('AAPL', '199');
    await s.fillMore('AAPL');
    await waitFor('the fill stored', () => s.storedFilled('AAPL').equals(1));
    const lines = statusFills(other.out.join('')).length;
    await waitFor('a status line after the fill', () => statusFills(other.out.join('')).length > lines);
    const otherOut = await stopped(other);

    const third = s.run(3, { place: [REST] });
    await waitFor('a status line', () => /holdings:/.test(third.out.join('')));
    const thirdOut = await stopped(third);

    // told with the order as it ended, its fill counted once
    const [fill] = s.fillsHeard(rest);
    expect(fill?.order).toMatchObject({ state: 'FILLED', filled: '1' });
    expect(fill?.order?.average).toBeDefined();
    const told = s.heard().find((h) => h.type === 'OrderFilled' && h.id === rest);
    expect(told?.order).toEqual(fill?.order);

    // the other engine's session ran Other only: the fill is not among its trades, nor its fills
    expect((await endedSessions(s, 'Other')).map((x) => x.stats?.trades)).toEqual([0]);
    expect(Math.max(...statusFills(otherOut))).toBe(0);
    // the restarted session: the fill was booked before it (its books open with it), not its own
    const [restarted] = await endedSessions(s, 'CrashPlan');
    expect(restarted?.stats?.trades).toBe(0);
    expect(Math.max(...statusFills(thirdOut))).toBe(0);
    // `hoga db runs --id` of either session says the same: no trade, none in its strategy's part
    const [others] = await endedSessions(s, 'Other');
    expect(await storedRun(s, others?.runId ?? '')).toEqual({ trades: [], parts: [['Other', 0]] });
    expect(await storedRun(s, restarted?.runId ?? '')).toEqual({ trades: [], parts: [['CrashPlan', 0]] });
  }, 300_000);

  it('fills its own reconcile finds: the order known as it stands at each, its fills counted once', async () => {
    const s = await Session.open();
    const first = s.run(1, { place: [PART] });
    const part = await s.idOf('part');
    await waitFor('the first fill heard', () => s.fillsHeard(part).length > 0);
    await s.kill(first);
    const before = s.fillsHeard(part).length;
    await s.fillMore('ZOM');

    const second = s.run(2, { place: [PART] });
    await waitFor('a status line', () => /holdings:/.test(second.out.join('')));
    const secondOut = await stopped(second);

    const reconciled = s.fillsHeard(part).slice(before);
    expect(reconciled.length).toBeGreaterThan(0);
    for (const f of reconciled) {
      // the view moves with each fill told: its filled quantity is the fill's cumulative one
      expect(f.order).toMatchObject({ filled: f.cumulative });
      expect(f.order?.average).toBeDefined();
    }
    const start = s
      .heard()
      .filter((h) => h.hook === 'start')
      .at(-1);
    const last = reconciled.at(-1);
    const open = start?.open?.find((o) => o.id === part);
    if (open !== undefined) expect(open.filled).toBe(last?.cumulative);
    else expect(last?.order?.state).toBe('FILLED');
    // the fills the reconcile booked are this session's (its trades, its status line's fills)
    expect((await endedSessions(s, 'CrashPlan')).map((x) => x.stats?.trades)).toEqual([reconciled.length]);
    expect(Math.max(...statusFills(secondOut))).toBe(reconciled.length);
  }, 300_000);

  it('an order rejected while the strategy was down: told, not counted as the new session refusal', async () => {
    const s = await Session.open();
    const first = s.run(1, { place: [] });
    await waitFor('a status line', () => /holdings:/.test(first.out.join('')));
    await stopped(first);
    // the broker refuses a buy over its maximum order amount (hoga order --strategy: for CrashPlan;
    // the risk module off, so that the broker is asked)
    const risk = join(s.dir, 'risk-off.json');
    writeFileSync(risk, JSON.stringify({ enabled: false }));
    const r = await hogaToEnd(
      ['order', 'buy', 'AAPL', '100000', '--limit', '200', '--confirm-high-value'].concat([
        '--strategy',
        'CrashPlan',
        '--risk-config',
        risk,
      ]),
      s.environment,
    );
    expect(r.out).toMatch(/refused by the broker: max-order-amount-exceeded/);

    const second = s.run(2, { place: [] });
    await waitFor('a status line', () => /holdings:/.test(second.out.join('')));
    const secondOut = await stopped(second);
    const rejected = s.heard().filter((h) => h.type === 'OrderRejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.order).toMatchObject({ state: 'REJECTED', filled: '0' });
    const sessions = await endedSessions(s, 'CrashPlan');
    expect(sessions.map((x) => x.stats?.refused ?? {})).toEqual([{}, {}]);
    expect(secondOut).not.toMatch(/refused orders/);
  }, 300_000);
});
