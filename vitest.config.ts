import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { nodeVersionProblem } from './packages/cli/bin/node-version.js';

// On a Node older than hoga needs, the store's tests died of a bare `Segmentation fault` (its
// SQLite addon, on Node before 22.14): said once instead, before any test runs.
const nodeProblem = nodeVersionProblem();
if (nodeProblem !== undefined) throw new Error(`${nodeProblem.message}\n${nodeProblem.hint}`);

/** Every test file of the workspace; `*.int.test.ts` are the integration tests. */
const ALL = [
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'strategies/**/*.test.ts',
  'examples/**/*.test.ts',
  'scripts/**/*.test.ts',
];
const INT = ['**/*.int.test.ts'];

/**
 * Two projects: `unit` is pure logic with fake clocks (no sockets, files, child processes or real
 * sleeps) and is the fast loop (`pnpm test:unit`); `int` talks HTTP to the simulator, opens SQLite
 * files and starts child processes. `pnpm test` runs both.
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: [...INT, '**/node_modules/**'],
          pool: 'threads',
          // Pure logic: a worker's test files share one module graph rather than each importing
          // the packages anew, which was most of the time (199 files, 2,550 tests, Node 24 on two
          // cores: 72.9 s, 141 s of CPU, against 21.5 s, 41 s of CPU; twice with the files
          // shuffled, all passed).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: INT,
          exclude: ['**/node_modules/**'],
          pool: 'forks',
          // A fork's test files share one module graph, as the unit project's do: each file
          // importing the simulator, the engine and the connector anew took 555 s of CPU in all
          // (vitest's `import`) on a two-core machine already busy with the tests' simulators and
          // child processes. 369 files, Node 24: 41 s of imports, 835 s for the project, all
          // passed; with the files shuffled, a helper's static state reached the next file (fixed:
          // see CONTRIBUTING.md). Every file closes what it starts (servers, databases, child
          // processes) in its own hooks.
          isolate: false,
          // the `hoga` bundle built once before the child-process tests start it (see the file)
          globalSetup: ['./scripts/int-global-setup.ts'],
        },
      },
    ],
    // Four test files at a time at least: vitest's default (a worker fewer than the cores) runs
    // them one by one on a two-core machine, where the integration tests mostly wait on simulated
    // markets and child processes: two at a time took the `int` project from 812 s to 515 s there,
    // three the whole suite from 1,005 s to 836 s (3,361 tests), and four from 1,018 s (CI's run
    // of 2026-11-30, 4,253 tests) to 815 s (4,331 tests, none failed).
    maxWorkers: Math.max(4, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
