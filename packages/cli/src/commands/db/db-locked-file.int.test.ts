/**
 * A database another process holds locked for writing past the busy timeout (5 s): the real `hoga`
 * must say who holds it and what to do, not only SQLite's "database is locked".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-locked-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a database another process holds locked', () => {
  it('db migrate says it is locked by another process and to run again, exit 1', async () => {
    const holder = HogaDatabase.open(file);
    holder.connection.exec('BEGIN IMMEDIATE');
    try {
      const run = await hoga(['db', 'migrate', '--db', file, '--json']);
      expect(run.code).toBe(1);
      const failure = jsonFailure(run.err);
      expect(failure.message).toContain(`${file} is locked by another process writing to it`);
      expect(failure.message).toContain('run the command again');
    } finally {
      holder.connection.exec('ROLLBACK');
      holder.close();
    }
  });
});
