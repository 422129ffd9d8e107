/**
 * `hoga risk set` says when it changed nothing: the scope already held that state by hand (the
 * reason kept is the first one), or was already ACTIVE. The real `hoga` as a child process over a
 * real SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-set-'));

describe('hoga risk set of a state the scope already holds', () => {
  it('says nothing changed and which reason stands, in text and --json', async () => {
    const env = { HOGA_DB: join(dir, 'hoga.sqlite') };
    expect((await hoga(['db', 'migrate'], { env })).code).toBe(0);
    const first = await hoga(['risk', 'set', 'HALTED', '--strategy', 's1', '--reason', 'maintenance'], {
      env,
    });
    expect(first.out).toBe('risk: strategy:s1 HALTED (manual: maintenance)\n');

    const again = await hoga(['risk', 'set', 'HALTED', '--strategy', 's1', '--reason', 'runaway orders'], {
      env,
    });
    expect(again.code).toBe(0);
    // before: only the status line, as if 'runaway orders' had been taken
    expect(again.out).toBe(
      [
        'nothing changed: strategy:s1 was already HALTED (manual: maintenance); to give another reason, hoga risk reset --strategy s1 first',
        'risk: strategy:s1 HALTED (manual: maintenance)',
        '',
      ].join('\n'),
    );
    const json = await hoga(['risk', 'set', 'HALTED', '--strategy', 's1', '--json'], { env });
    expect(JSON.parse(json.out)).toMatchObject({
      changed: false,
      states: { 'strategy:s1': { reason: 'maintenance' } },
    });

    const active = await hoga(['risk', 'set', 'ACTIVE', '--symbol', '005930'], { env });
    expect(active.out).toBe(
      'nothing changed: symbol:005930 was already ACTIVE\nrisk: strategy:s1 HALTED (manual: maintenance)\n',
    );
    const changed = await hoga(['risk', 'set', 'REDUCING', '--strategy', 's1', '--json'], { env });
    expect(JSON.parse(changed.out)).toMatchObject({
      changed: true,
      states: { 'strategy:s1': { state: 'REDUCING' } },
    });
  });
});
