/**
 * The `hoga db` lists of a store that holds none of what they list: the table says so, naming the
 * file (before: a header alone, read as a listing gone wrong); `--json` is `[]` and `--csv` its
 * header, as a program reading them expects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDbCommands } from '../db.js';
import { withFailure } from './db-io.js';

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-db-empty-'));
  file = join(dir, 'hoga.sqlite');
  HogaDatabase.open(file).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `hoga db ...args --db <file>` in-process; returns what it printed and the exit code it set. */
async function hogaDb(...args: string[]): Promise<{ out: string; code: number }> {
  const result = { out: '', code: 0 };
  const program = new Command('hoga').exitOverride().configureOutput({ writeErr: () => undefined });
  registerDbCommands(
    program,
    withFailure({
      out: (t) => {
        result.out += t;
      },
      err: () => undefined,
      fail: (c) => {
        result.code = c;
      },
    }),
  );
  await program.parseAsync(['node', 'hoga', 'db', ...args, '--db', file]);
  return result;
}

describe('hoga db lists of an empty store', () => {
  it.each([
    [['runs'], 'no runs in FILE'],
    [['runs', '--kind', 'backtest'], 'no backtest runs in FILE'],
    [['orders'], 'no orders in FILE'],
    [['orders', '--mode', 'paper', '--symbol', '005930'], 'no paper orders in FILE match'],
    [['orders', '--mode', 'backtest'], 'no backtest orders in FILE'],
    [['fills', '--date', '2026-11-23'], 'no fills in FILE match'],
    [['positions', '--mode', 'paper'], 'no paper positions in FILE'],
  ])('db %j says there are none', async (args, says) => {
    expect(await hogaDb(...args)).toEqual({ out: `${says.replace('FILE', file)}\n`, code: 0 });
  });

  it('keeps [] for --json and the header for --csv', async () => {
    for (const list of ['runs', 'orders', 'fills', 'positions']) {
      expect(await hogaDb(list, '--json'), list).toEqual({ out: '[]\n', code: 0 });
    }
    expect((await hogaDb('runs', '--csv')).out).toBe('started,run,kind,strategy,status,return,trades\n');
  });
});
