/**
 * `hoga sim` started on a date its holiday lists do not cover (they hold 2026 and 2027) says so on
 * stderr, with what follows: before, it started silently, and a run against it had every order
 * denied `risk-market-data-missing` (its calendar endpoints refuse the date) with nothing at the
 * simulator saying why. A real `hoga sim` child process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { HOGA_BIN } from './hoga-process.test-helper.js';

let sim: ChildProcess | undefined;
afterEach(() => {
  sim?.kill('SIGTERM');
  sim = undefined;
});

/** The stderr of `hoga sim --start <start>` up to its line about --state (printed last at the start). */
function startupStderr(start: string): Promise<string> {
  sim = spawn(process.execPath, [HOGA_BIN, 'sim', '--port', '0', '--start', start], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise<string>((resolve, reject) => {
    sim!.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('without --state')) resolve(err);
    });
    sim!.once('exit', (code) => reject(new Error(`hoga sim exited ${code}: ${err}`)));
  });
}

describe('hoga sim outside the years of its calendars', () => {
  it('says at its start that 2028-03-02 is outside them, and what follows', async () => {
    const err = await startupStderr('2028-03-02T10:00:00+09:00');
    expect(err).toContain(
      'hoga sim: its market calendars cover 2026-01-01 to 2027-12-31; on 2028-03-02 the calendar endpoints answer 400 unsupported-date',
    );
  }, 60_000);

  it('says nothing of the kind inside them (2026-11-23)', async () => {
    const err = await startupStderr('2026-11-23T10:00:00+09:00');
    expect(err).not.toContain('market calendars cover');
  }, 60_000);
});
