/**
 * The packages' dependencies point one way: core ← broker-model ← connector (core, broker-model:
 * the broker's own rules, such as when a DAY order ends), store ← simulator (core, broker-model)
 * and engine ← cli.
 * This test reads every package's manifest and every import in its sources and fails on an
 * import across the grain (the simulator reaching for the connector, core for anything, …).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** What each package's runtime code may import of the others. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  'broker-model': ['core'],
  connector: ['core', 'broker-model'],
  store: ['core'],
  simulator: ['core', 'broker-model'],
  engine: ['core', 'broker-model', 'connector', 'store'],
  cli: ['core', 'broker-model', 'connector', 'store', 'simulator', 'engine'],
};

/** What a package's tests and benchmarks may import besides: the simulator is everyone's broker. */
const ALLOWED_IN_TESTS: readonly string[] = ['simulator', 'store'];

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(sourceFiles(path));
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'@hoga\/([a-z-]+)'/g)) {
    if (match[1] !== undefined) found.add(match[1]);
  }
  return [...found];
}

const isTestCode = (file: string) =>
  /\.test\.ts$|[/\\]test[/\\]|[/\\]bench[/\\]|test-helper\.ts$/.test(relative(root, file));

describe('package dependency graph', () => {
  it('lists every package of the workspace', () => {
    expect(readdirSync(join(root, 'packages')).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const [name, allowed] of Object.entries(ALLOWED)) {
    it(`keeps @hoga/${name} importing only ${allowed.length === 0 ? 'no other package' : allowed.join(', ')}`, () => {
      const dir = join(root, 'packages', name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      const declared = Object.keys(manifest.dependencies ?? {})
        .filter((dep) => dep.startsWith('@hoga/'))
        .map((dep) => dep.slice('@hoga/'.length));
      expect(declared.filter((dep) => !allowed.includes(dep))).toEqual([]);

      const offending: string[] = [];
      for (const file of sourceFiles(dir)) {
        const extra = isTestCode(file) ? ALLOWED_IN_TESTS : [];
        for (const dep of importedPackages(file)) {
          if (dep !== name && !allowed.includes(dep) && !extra.includes(dep)) {
            offending.push(`${relative(root, file)} imports @hoga/${dep}`);
          }
        }
      }
      expect(offending).toEqual([]);
    });
  }
});
