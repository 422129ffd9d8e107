/**
 * What the token-cache integration tests run against, new for each test: the simulator (Monday
 * 10:00 KST, closed after the test) and a new temporary folder for the token file and databases.
 * Test code only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach } from 'vitest';

/** The current test's simulator and folder (set before each test). */
export interface SimulatorAndFolder {
  readonly sim: SimulatorHandle;
  readonly dir: string;
  /** A migrated database file in the test's folder (a broker command never creates one). */
  database(name?: string): string;
}

/** Registers the hooks that give each test of the file a new simulator and a folder named `prefix…`. */
export function useSimulatorAndFolder(prefix: string): SimulatorAndFolder {
  let sim: SimulatorHandle | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00' });
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await sim?.close();
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useSimulatorAndFolder: read outside a test');
    return value;
  };
  return {
    get sim() {
      return current(sim);
    },
    get dir() {
      return current(dir);
    },
    database(name = 'hoga.sqlite') {
      const file = join(current(dir), name);
      HogaDatabase.open(file).close();
      return file;
    },
  };
}
