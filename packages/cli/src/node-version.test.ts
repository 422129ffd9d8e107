/**
 * The Node.js versions hoga refuses (bin/node-version.js): before 22.14 its SQLite addon crashes,
 * before 22.18 strategy files do not load; each refusal names the version found and the one needed,
 * and says which of the two it is.
 */
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../bin/node-version.js';

describe('nodeVersionProblem', () => {
  it.each(['22.18.0', '22.23.5', '23.6.0', '24.0.0', '24.22.3', '26.1.0'])('takes Node %s', (version) => {
    expect(nodeVersionProblem(version, '/bin/node')).toBeUndefined();
  });

  it.each(['20.20.2', '21.7.3', '22.12.0', '22.13.1', '23.5.0'])(
    'refuses Node %s: its SQLite addon crashes there',
    (version) => {
      const problem = nodeVersionProblem(version, '/opt/node/bin/node');
      expect(problem?.message).toBe(
        `Node.js ${version} (/opt/node/bin/node) is too old: hoga needs Node.js 22.18 or later (24 LTS recommended)`,
      );
      expect(problem?.hint).toMatch(/^on this Node the SQLite addon \(better-sqlite3\) crashes/);
    },
  );

  it.each(['22.14.0', '22.15.0', '22.17.1'])(
    'refuses Node %s: strategy files do not load there',
    (version) => {
      const problem = nodeVersionProblem(version, '/bin/node');
      expect(problem?.message).toContain(`Node.js ${version} (/bin/node) is too old`);
      expect(problem?.hint).toMatch(
        /^this Node strips no TypeScript types without a flag: strategy files do not load/,
      );
    },
  );
});
