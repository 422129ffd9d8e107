// The oldest Node.js hoga runs on, checked by bin/hoga.js before anything else is loaded and by
// vitest.config.ts before a test runs. Types: node-version.d.ts. Keep in step with package.json's
// `engines`, the README and CONTRIBUTING.md.

/** The oldest Node.js hoga runs on, as said to users. */
export const NODE_NEEDED = '22.18';

/**
 * What is wrong with the Node.js running this process, or undefined when it is new enough: 22.18
 * (23.6 on the odd line). Before 22.14 (Node-API 10) the store's SQLite addon, better-sqlite3 13,
 * segfaults at the first database it opens (a bare `Segmentation fault`, exit 139, nothing said:
 * WiseLibs/better-sqlite3#1514); before 22.18 Node strips no TypeScript types without a flag, and
 * a strategy file outside the repository does not load (Node's `Cannot require() ES Module … in a
 * cycle` on 22.14, `Expected a string … from the "load" hook` on 22.15–22.17).
 *
 * @returns the problem in two lines: what was found and is needed, then why and what to do
 */
export function nodeVersionProblem(version = process.versions.node, execPath = process.execPath) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18)) return undefined;
  // Node-API 10: 22.14, 23.6 (which passes)
  const napi10 = major === 22 && minor >= 14;
  return {
    message: `Node.js ${version} (${execPath}) is too old: hoga needs Node.js ${NODE_NEEDED} or later (24 LTS recommended)`,
    hint: `${
      napi10
        ? 'this Node strips no TypeScript types without a flag: strategy files do not load'
        : 'on this Node the SQLite addon (better-sqlite3) crashes at the first database it opens'
    }; install a newer Node.js (CONTRIBUTING.md has one line that brings Node 24 from the npm registry)`,
  };
}
