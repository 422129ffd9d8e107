/**
 * A paper run whose store fails to take a fill (a write refused: disk full, I/O error, the file
 * locked past the busy timeout), as a `hoga run --mode paper` child process against the simulator
 * over a real SQLite file. A test-only trigger on the file refuses the write of the fill's rows
 * (`fills`), of the paper account (`strategy_state` of `paper/_account`) or of a new order (`orders`:
 * while the store refuses writes, a new order is denied `store-unavailable`). The fill's rows, its
 * order's row and the ledger with the open orders it produced are one transaction: the store holds
 * all of it or none of it, whatever else is refused or however the process ends. Before, the ledger
 * and the open orders were saved first and the fill's rows in a transaction of their own: a refused
 * `fills` write left the ledger with the fill and `hoga db fills` without it (the run went on with
 * a warning, and the order's row stayed `SUBMITTED` with nothing filled for good); a refused ledger
 * write was thrown out of the venue's event handler and failed the run as an "uncaught exception".
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOGA_BIN } from '../hoga-process.test-helper.js';
import {
  ARGS,
  closeSims,
  env,
  FAST,
  type Running,
  readStore,
  restsBelow,
  root,
  run,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

/** Buys 2 shares at the market on its 3rd bar. */
const buysTwo = join(root, 'packages/cli/test/fixtures/logs-fills.ts');
/** Buys 1 share at the market on each of its 3rd, 4th and 5th bars. */
const buysThrice = join(root, 'packages/cli/test/fixtures/buys-on-bars.ts');
/** Places nothing. */
const placesNothing = join(root, 'packages/cli/test/fixtures/logs-each-bar.ts');
/**
 * The market's speed: 240 simulated seconds a second (a 1m bar every quarter second), twice
 * {@link FAST}: the strategies' 3rd to 7th bars come in half the real time.
 */
const SPEED = 2 * FAST;
/**
 * One symbol, its candles polled every half second (the default, 5 s, brought the 3rd bar 5 s after
 * the start, the first poll bringing only the last bar): at ×240 a poll brings a bar or two, as a
 * poll each second did at ×120.
 */
const ONE_SYMBOL = ['--symbols', '005930', ...ARGS.slice(2), '--candle-poll-ms', '500'];

/** Test-only triggers that refuse a write, as a full disk would. */
const REFUSE = {
  fills: `CREATE TRIGGER test_refuse BEFORE INSERT ON fills
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  orders: `CREATE TRIGGER test_refuse BEFORE INSERT ON orders
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  orderUpdates: `CREATE TRIGGER test_refuse BEFORE UPDATE ON orders
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  ledger: `CREATE TRIGGER test_refuse BEFORE UPDATE ON strategy_state
      WHEN NEW.strategy_id = 'paper/_account' AND NEW.key = 'ledger' AND NEW.value IS NOT OLD.value
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`,
};

function refuse(db: string, which: keyof typeof REFUSE): void {
  readStore(db, (d) => d.connection.exec(REFUSE[which]));
}

function allow(db: string): void {
  readStore(db, (d) => d.connection.exec('DROP TRIGGER test_refuse'));
}

/** `hoga db … --json` as a user runs it (the bundle: no compile through tsx at each start). */
async function dbJson(sim: Parameters<typeof env>[0], db: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [HOGA_BIN, 'db', ...args, '--json'], {
    cwd: root,
    env: env(sim, db),
  });
  return JSON.parse(stdout) as Record<string, string | null>[];
}

/** The paper positions and the net of the stored fills, by symbol (zero positions left out). */
async function positionsAndFills(sim: Parameters<typeof env>[0], db: string) {
  // the two reads side by side
  const [held, fills] = await Promise.all([
    dbJson(sim, db, 'positions', '--mode', 'paper'),
    dbJson(sim, db, 'fills', '--mode', 'paper'),
  ]);
  const positions = held
    .map((p) => [p.symbol, Number(p.quantity)] as const)
    .filter(([, q]) => q !== 0)
    .sort();
  const net = new Map<string, number>();
  for (const f of fills) {
    const q = Number(f.quantity) * (f.side === 'BUY' ? 1 : -1);
    net.set(f.symbol as string, (net.get(f.symbol as string) ?? 0) + q);
  }
  return { positions, fills: [...net].filter(([, q]) => q !== 0).sort() };
}

/** Kills the child as a crash would (no stop, nothing flushed). */
async function crash(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  await r.exited;
}

describe('hoga run --mode paper: a fill the store refuses', () => {
  it.each(['fills', 'ledger'] as const)(
    'refused %s write, then a crash: the ledger and the fills agree, and the restart fills the order once',
    async (which) => {
      const { sim, db } = await setup(true, SPEED);
      // the store file exists (migrated) before the run, with the trigger on it
      readStore(db, () => undefined);
      refuse(db, which);
      const first = start(['run', buysTwo, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
      // the run says what the store refused, and goes on; the fill is not told while unstored
      expect(await until(first, /warning: paper-store: .*test: the disk is full/, 90_000)).toBe(true);
      expect(first.out.join('')).not.toMatch(/ fill +BUY 2 005930/);
      await crash(first);
      allow(db);

      // the store holds neither the fill nor the ledger's part of it
      expect(await positionsAndFills(sim, db)).toEqual({ positions: [], fills: [] });
      // the order is worked again from what the store holds, and fills once
      const second = start(['run', placesNothing, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
      expect(await until(second, / fill +BUY 2 005930/, 90_000)).toBe(true);
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
      const [stored, orders] = await Promise.all([
        positionsAndFills(sim, db),
        dbJson(sim, db, 'orders', '--mode', 'paper'),
      ]);
      expect(stored).toEqual({
        positions: [['005930', 2]],
        fills: [['005930', 2]],
      });
      expect(orders.map((o) => [o.state, o.filledQuantity])).toEqual([['FILLED', '2']]);
    },
    240_000,
  );

  it('a refused write taken once the store takes writes again: the fill is stored, once, with the ledger', async () => {
    const { sim, db } = await setup(true, SPEED);
    readStore(db, () => undefined);
    refuse(db, 'fills');
    const r = start(['run', buysTwo, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
    expect(await until(r, /warning: paper-store: .*test: the disk is full/, 90_000)).toBe(true);
    allow(db);
    // the run's next tick stores what waited (looked for in the file: a read is no process start)
    const stored = () =>
      readStore(db, (d) => d.connection.prepare('SELECT count(*) AS n FROM fills').get() as { n: number }).n;
    const end = performance.now() + 30_000;
    while (stored() === 0 && performance.now() < end) await new Promise((x) => setTimeout(x, 200));
    // told once stored
    expect(await until(r, / fill +BUY 2 005930/, 30_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    const [both, orders] = await Promise.all([
      positionsAndFills(sim, db),
      dbJson(sim, db, 'orders', '--mode', 'paper'),
    ]);
    expect(both).toEqual({ positions: [['005930', 2]], fills: [['005930', 2]] });
    expect(orders.map((o) => [o.state, o.filledQuantity])).toEqual([['FILLED', '2']]);
    expect(readStore(db, (d) => d.strategyState.get('paper/_account', 'orders'))).toEqual([]);
  }, 150_000);

  it('nothing fills while the store refuses writes; once it takes them, the orders it took fill and all is stored', async () => {
    // before, the venue went on filling while the store refused: every fill it could not keep
    // would be filled again after a crash, its strategy hearing of it twice. And it went on taking
    // new orders, whose events waited with the fill: the risk module, which counts the open orders
    // it has heard of, did not count them (paper-store-refusing-orders.int.test.ts)
    const { sim, db } = await setup(true, SPEED);
    readStore(db, () => undefined);
    refuse(db, 'fills');
    const r = start(['run', buysThrice, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
    const fillLines = () => r.out.join('').match(/ fill +BUY 1 005930/g)?.length ?? 0;
    expect(await until(r, /warning: paper-store: .*test: the disk is full/, 90_000)).toBe(true);
    // the 3rd order is placed, and two more bars pass: a market order fills at the next book
    // (every 100 ms) when the store takes writes. The first refused fill and every event after it
    // wait for the store: the run tells the acceptance of the orders placed before that fill only
    // (one to three: a candle poll can bring bars 3 to 5 together), and no fill; an order
    // placed after it is denied before the paper venue
    expect(await until(r, /BuysOnBars: bar 7/, 90_000)).toBe(true);
    const accepted = () => r.out.join('').match(/ accepted /g)?.length ?? 0;
    const denied = () =>
      r.out
        .join('')
        .match(/ denied [^:]+: store-unavailable the paper store refuses writes \(test: the disk is full\)/g)
        ?.length ?? 0;
    const placed = accepted();
    expect(placed).toBeGreaterThanOrEqual(1);
    expect(placed + denied()).toBe(3);
    expect(fillLines()).toBe(0);
    expect(
      readStore(db, (d) => d.connection.prepare('SELECT count(*) AS n FROM fills').get() as { n: number }).n,
    ).toBe(0);
    allow(db);
    const end = performance.now() + 60_000;
    while (fillLines() < placed && performance.now() < end) await new Promise((x) => setTimeout(x, 200));
    expect(fillLines()).toBe(placed);
    expect(accepted()).toBe(placed);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(await positionsAndFills(sim, db)).toEqual({
      positions: [['005930', placed]],
      fills: [['005930', placed]],
    });
  }, 240_000);

  it('a new order while the store refuses writes is denied store-unavailable before the paper venue; once it takes them, orders go on', async () => {
    // before, the paper venue took the 4th and 5th bars' orders too, their events waiting with the
    // 3rd's: the risk module, which counts the open orders it has heard of, counted none of them
    const { sim, db } = await setup(true, SPEED);
    readStore(db, () => undefined);
    refuse(db, 'orders');
    const r = start(['run', buysThrice, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
    const out = () => r.out.join('');
    const denied = () =>
      out().match(
        / denied [^:]+: store-unavailable the paper store refuses writes \(test: the disk is full\)/g,
      )?.length ?? 0;
    // the 3rd bar's order reaches the venue (the store took every write before it), and the store
    // refuses its submission: the 4th and 5th bars' orders are denied, however the bars come
    expect(await until(r, /warning: paper-store: .*test: the disk is full/, 90_000)).toBe(true);
    const end = performance.now() + 90_000;
    while (denied() < 2 && performance.now() < end) await new Promise((x) => setTimeout(x, 200));
    expect(denied()).toBe(2);
    expect(out()).not.toMatch(/ accepted /);
    allow(db);
    // the 3rd bar's order is stored, told, and fills (the fill model matches again)
    expect(await until(r, / fill +BUY 1 005930/, 60_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(out().match(/ accepted /g)).toHaveLength(1);
    expect(out()).toMatch(/refused orders: 2 \(store-unavailable 2\)/);
    expect(await positionsAndFills(sim, db)).toEqual({ positions: [['005930', 1]], fills: [['005930', 1]] });
    // the order it took, once; the denied orders' rows, refused while the store refused writes, kept
    // and stored once it took them (before: lost)
    const orders = await dbJson(sim, db, 'orders', '--mode', 'paper');
    expect(orders.filter((o) => o.state !== 'DENIED').map((o) => [o.state, o.filledQuantity])).toEqual([
      ['FILLED', '1'],
    ]);
    const denials = orders.filter((o) => o.state === 'DENIED');
    expect(denials).toHaveLength(2);
    for (const o of denials)
      expect(String(o.rejectReason)).toMatch(/^store-unavailable: the paper store refuses/);
  }, 240_000);

  it('a stop while the store still refuses says so and exits 1; the session is stored stopped', async () => {
    // before: "stopped: strategies stopped, store flushed", exit 0, though the paper account's
    // fill was in neither the ledger nor hoga db fills
    const { sim, db } = await setup(true, SPEED);
    readStore(db, () => undefined);
    refuse(db, 'ledger');
    const r = start(['run', buysTwo, '--mode', 'paper', ...ONE_SYMBOL], env(sim, db));
    expect(await until(r, /warning: paper-store: .*test: the disk is full/, 90_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(1);
    const out = r.out.join('');
    // the fill (its order's submission and acceptance were stored: they left the ledger as it was)
    expect(out).toMatch(
      /warning: paper-store: 1 order event of this paper run and its ledger are not stored/,
    );
    expect(out).toMatch(
      /stopped: strategies stopped; the store refused the paper account's last changes \(1 order event and its ledger\)/,
    );
    expect(out).not.toContain('store flushed');
    // the fill was never told (nor journalled)
    expect(out).not.toMatch(/ fill +BUY 2 005930/);
    allow(db);
    const [runs, both] = await Promise.all([
      dbJson(sim, db, 'runs', '--kind', 'paper'),
      positionsAndFills(sim, db),
    ]);
    expect(runs.map((x) => x.status)).toEqual(['stopped']);
    expect(both).toEqual({ positions: [], fills: [] });
  }, 150_000);

  it('--cancel-on-stop while the store refuses: the cancel not stored is said so (not "cancel refused"), exit 1; the next run works the order again', async () => {
    // before: "still working (cancel refused, above)", though the paper venue had cancelled it and
    // no cancel was refused: only the store had not taken it
    const { sim, db } = await setup(true, SPEED);
    readStore(db, () => undefined);
    const args = ['run', restsBelow, '--mode', 'paper', ...ONE_SYMBOL];
    const r = start([...args, '--cancel-on-stop'], env(sim, db));
    expect(await until(r, / accepted /, 90_000)).toBe(true);
    refuse(db, 'orderUpdates');
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(1);
    const out = r.out.join('');
    expect(out).not.toContain('cancel refused');
    expect(out).toMatch(
      /cancel on stop: 0 of 1 open order cancelled; cancelled on the paper venue but not stored \(the store refuses writes, above: the next paper run works it again\): \S+/,
    );
    allow(db);
    const orders = await dbJson(sim, db, 'orders', '--mode', 'paper');
    expect(orders.map((o) => o.state)).toEqual(['ACCEPTED']);
    // a run of another strategy leaves it working (it is not this run's to cancel)
    const other = start(
      ['run', placesNothing, '--mode', 'paper', ...ONE_SYMBOL, '--cancel-on-stop'],
      env(sim, db),
    );
    expect(await until(other, / status /, 90_000)).toBe(true);
    other.child.kill('SIGINT');
    expect(await other.exited, other.out.join('')).toBe(0);
    expect(other.out.join('')).toContain('cancel on stop: 0 open orders cancelled');
    expect((await dbJson(sim, db, 'orders', '--mode', 'paper')).map((o) => o.state)).toEqual(['ACCEPTED']);
    // as said: the next run of its strategy works the order again (and places its own), and
    // cancels both for good on its stop
    const second = start([...args, '--cancel-on-stop'], env(sim, db));
    expect(await until(second, / accepted /, 90_000)).toBe(true);
    second.child.kill('SIGINT');
    expect(await second.exited, second.out.join('')).toBe(0);
    expect(second.out.join('')).toContain('cancel on stop: 2 open orders cancelled');
    const after = await dbJson(sim, db, 'orders', '--mode', 'paper');
    expect(after.map((o) => o.state)).toEqual(['CANCELED', 'CANCELED']);
  }, 240_000);
});
