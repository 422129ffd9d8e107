/**
 * The share folder on a real disk: which files count as the client's live processes.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveClock, RateLimitGroup } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessRateShare } from './process-rate-share.js';
import { RequestPriority } from './rate-limit-groups.js';
import { RateLimiter } from './rate-limiter.js';

const client = { baseUrl: 'http://127.0.0.1:18080', clientId: 'sim-client' };
const shares: ProcessRateShare[] = [];
afterEach(() => {
  for (const s of shares.splice(0)) s.close();
});

/** A process's share, counting (as at its first request). */
function share(dir: string, pid: number, now: () => number = Date.now): ProcessRateShare {
  const s = new ProcessRateShare({ dir, ...client, pid, now, recountMs: 0 });
  shares.push(s);
  s.join();
  return s;
}

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return child.pid as number;
}

describe(ProcessRateShare, () => {
  it('counts the live processes of its client: the whole limits alone, half with one more', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoga-share-')), 'rate-share');
    const own = share(dir, process.pid);
    expect(own.fraction()).toBe(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(file).toMatch(new RegExp(`^[0-9a-f]{16}\\.${process.pid}$`));
    expect(statSync(join(dir, file as string)).mode & 0o777).toBe(0o600);
    // another live process of the same client (the test runner's parent stands for it): half of
    // 90 % of the limits each, the rest the broker's room for their requests' uneven arrivals
    share(dir, process.ppid);
    expect(own.fraction()).toBe(0.45);
  });

  it('does not count another client, a process gone, a file untouched for a while, nor a share closed', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoga-share-')), 'rate-share');
    const own = share(dir, process.pid);
    const prefix = readdirSync(dir)[0]?.split('.')[0] as string;
    // another client's process
    shares.push(new ProcessRateShare({ dir, ...client, clientId: 'another', pid: process.ppid }));
    shares.at(-1)?.join();
    expect(own.fraction()).toBe(1);
    // a client that sent nothing yet (`hoga run`'s probe of its configuration): not counted
    shares.push(new ProcessRateShare({ dir, ...client, pid: process.ppid }));
    expect(own.fraction()).toBe(1);
    shares.pop()?.close();
    // a process killed without closing: its file stays, its pid is gone
    share(dir, deadPid());
    expect(own.fraction()).toBe(1);
    // a live process whose file was last touched 5 s ago (stopped, or its disk unwritable)
    const path = join(dir, `${prefix}.${process.ppid}`);
    closeSync(openSync(path, 'a'));
    const old = new Date(Date.now() - 5_000);
    utimesSync(path, old, old);
    expect(own.fraction()).toBe(1);
    // the same process touching it: counted, until it closes (its file removed)
    const second = share(dir, process.ppid);
    expect(own.fraction()).toBe(0.45);
    second.close();
    expect(readdirSync(dir)).not.toContain(`${prefix}.${process.ppid}`);
    expect(own.fraction()).toBe(1);
  });

  it('reads the folder again only once its count is older than recountMs', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoga-share-')), 'rate-share');
    let now = Date.now();
    const own = new ProcessRateShare({ dir, ...client, now: () => now, recountMs: 250 });
    shares.push(own);
    expect(own.fraction()).toBe(1);
    share(dir, process.ppid);
    now += 100;
    expect(own.fraction()).toBe(1);
    now += 200;
    expect(own.fraction()).toBe(0.45);
  });

  it("counts a limiter's process from its first request, not when the limiter is asked its rate", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoga-share-')), 'rate-share');
    const own = new ProcessRateShare({ dir, ...client, recountMs: 0 });
    shares.push(own);
    const limiter = new RateLimiter({ clock: new LiveClock(), share: own });
    try {
      // the poll scheduler's and the start-up estimates' question, before any request
      expect(limiter.rateOf(RateLimitGroup.MARKET_DATA)).toBeGreaterThan(0);
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      await limiter.acquire(RateLimitGroup.MARKET_DATA, RequestPriority.NORMAL);
      expect(readdirSync(dir)).toEqual([expect.stringMatching(new RegExp(`\\.${process.pid}$`))]);
    } finally {
      limiter.dispose();
    }
  });
});
