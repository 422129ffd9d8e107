/**
 * Ctrl-C (SIGINT) during `hoga run`'s start-up, before the run is up: said, exit 130 (before, the
 * process ended with no word at all).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  hogaToEnd,
  REST_ARGS,
  root,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga run interrupted during start-up', () => {
  it('before the engine starts (the broker not answering yet): says no order was placed, exit 130', async () => {
    // a broker that takes requests and never answers: the run waits on its first read
    const requests: string[] = [];
    let arrived: (request: IncomingMessage) => void = () => undefined;
    const first = new Promise<IncomingMessage>((resolve) => {
      arrived = resolve;
    });
    const broker = createServer((request) => {
      requests.push(`${request.method} ${request.url}`);
      arrived(request);
    });
    await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'hoga-run-'));
      const url = `http://127.0.0.1:${(broker.address() as AddressInfo).port}`;
      const r = start(['run', join(root, 'strategies/sma-crossover.ts'), '--mode', 'paper', ...REST_ARGS], {
        ...env({ url } as Parameters<typeof env>[0], join(dir, 'hoga.sqlite')),
      });
      await first;
      r.child.kill('SIGINT');
      expect(await r.exited).toBe(130);
      expect(r.out.join('')).toContain(
        'hoga run: interrupted during start-up, before the run started: no order was placed\n',
      );
      expect(requests.filter((line) => !line.startsWith('GET '))).toEqual([]);
    } finally {
      broker.closeAllConnections();
      await new Promise((resolve) => broker.close(resolve));
    }
  }, 60_000);

  it('while the strategies start: the run stops as soon as it is up (onStop, the session stored stopped), exit 130', async () => {
    const { sim, db } = await setup();
    const dir = mkdtempSync(join(tmpdir(), 'hoga-run-'));
    const file = join(dir, 'go');
    const config = join(dir, 'waits.json');
    writeFileSync(config, JSON.stringify({ file }));
    const fixture = join(root, 'packages/cli/test/fixtures/waits-for-file-at-start.ts');
    const r = start(['run', fixture, '--mode', 'paper', '--config', config, ...REST_ARGS], env(sim, db));
    // the strategy's onStart holds the start-up: Ctrl-C surely comes before the run is up
    expect(await until(r, /waiting for /, 60_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await until(r, /interrupted during start-up/, 30_000)).toBe(true);
    writeFileSync(file, '');
    expect(await r.exited).toBe(130);
    const out = r.out.join('');
    expect(out).toContain(
      'hoga run: interrupted during start-up: the run stops as soon as it is up (Ctrl-C again quits at once)\n',
    );
    expect(out).toContain('stopped: strategies stopped, store flushed');
    expect(out).toContain(
      'hoga run: interrupted during start-up; the run stopped once it was up: no order was placed\n',
    );
    const runs = await hogaToEnd(['db', 'runs', '--kind', 'paper', '--json'], env(sim, db));
    expect((JSON.parse(runs.stdout) as { status: string }[]).map((x) => x.status)).toEqual(['stopped']);
  }, 90_000);
});
