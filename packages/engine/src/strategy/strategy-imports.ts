/**
 * How a strategy file's imports resolve in a process that runs hoga as one bundled module (the
 * `hoga` command): the strategy's `@hoga/engine` and `@hoga/core` must be the running process's own
 * modules, not a second copy read from the sources (a `Strategy` of another copy is not a strategy
 * to this one, and the sources' `.js` specifiers do not load without a TypeScript loader). Module
 * hooks (`module.registerHooks`, in the loading thread) answer those two specifiers with a module
 * that re-exports this process's objects, and let a `.ts` file import a sibling `.ts` file by its
 * `.js` name, as TypeScript writes it. Node strips the strategy's types itself.
 *
 * The libraries hoga ships for strategies (`trading-signals` for indicators, `decimal.js`, `luxon`,
 * `zod`) resolve to this process's copies when the strategy's own directory has none: a strategy in
 * a directory of the user's own, without a `node_modules`, can import them; one whose project
 * installs them gets its own.
 *
 * Run from the sources (tsx, tests) the mapping changes nothing: the objects are the same ones.
 *
 * @module
 */
import * as nodeModule from 'node:module';
import * as core from '@hoga/core';
import * as decimalJs from 'decimal.js';
import * as luxon from 'luxon';
import * as tradingSignals from 'trading-signals';
import * as zod from 'zod';
import * as engine from '../index.js';

const SCHEME = 'hoga-api:';
const GLOBAL_KEY = 'hoga.strategy-api';

type Namespace = Readonly<Record<string, unknown>>;

/** The synchronous module hooks of Node ≥ 22.15 / 23.5, as far as they are used here. */
interface ResolveResult {
  url: string;
  shortCircuit?: boolean;
}
interface LoadResult {
  format: string;
  source?: string;
  shortCircuit?: boolean;
}
interface ResolveContext {
  parentURL?: string | undefined;
}
type RegisterHooks = (hooks: {
  resolve?: (
    specifier: string,
    context: ResolveContext,
    next: (specifier: string, context?: ResolveContext) => ResolveResult,
  ) => ResolveResult;
  load?: (url: string, context: object, next: (url: string, context?: object) => LoadResult) => LoadResult;
}) => unknown;

let installed: boolean | null = null;

/**
 * Installs the hooks once per process.
 *
 * @returns whether they are installed (false on a Node without `module.registerHooks`)
 */
export function installStrategyImportHooks(): boolean {
  if (installed !== null) return installed;
  const register = (nodeModule as unknown as { registerHooks?: RegisterHooks }).registerHooks;
  if (typeof register !== 'function') {
    installed = false;
    return false;
  }
  const api: Readonly<Record<string, Namespace>> = {
    '@hoga/core': core as Namespace,
    '@hoga/engine': engine as Namespace,
    // shipped libraries: only when the strategy's own resolution finds none (see `resolve`)
    'trading-signals': tradingSignals as Namespace,
    'decimal.js': decimalJs as Namespace,
    luxon: luxon as Namespace,
    zod: zod as Namespace,
  };
  (globalThis as Record<symbol, unknown>)[Symbol.for(GLOBAL_KEY)] = api;
  register({
    resolve(specifier, context, next) {
      if (Object.hasOwn(api, specifier) && specifier.startsWith('@hoga/')) {
        return { url: `${SCHEME}${specifier}`, shortCircuit: true };
      }
      try {
        return next(specifier, context);
      } catch (error) {
        if (Object.hasOwn(api, specifier)) return { url: `${SCHEME}${specifier}`, shortCircuit: true };
        const relative = specifier.startsWith('./') || specifier.startsWith('../');
        if (relative && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts') === true) {
          return next(`${specifier.slice(0, -3)}.ts`, context);
        }
        throw error;
      }
    },
    load(url, context, next) {
      if (!url.startsWith(SCHEME)) return next(url, context);
      const name = url.slice(SCHEME.length);
      return { format: 'module', source: reexports(name, api[name] ?? {}), shortCircuit: true };
    },
  });
  installed = true;
  return true;
}

/**
 * A module re-exporting the names of one of this process's namespaces. Each name is exported from
 * a local binding by its string name (`export { _1 as "enum" }`): a library's names may be reserved
 * words (zod exports `enum`, `catch`, `null`, `function`, …), which `export const` cannot declare.
 */
function reexports(name: string, namespace: Namespace): string {
  const lines = [`const m = globalThis[Symbol.for(${JSON.stringify(GLOBAL_KEY)})][${JSON.stringify(name)}];`];
  let n = 0;
  for (const key of Object.keys(namespace)) {
    if (key === 'default') continue;
    const local = `_${n++}`;
    const quoted = JSON.stringify(key);
    lines.push(`const ${local} = m[${quoted}];`, `export { ${local} as ${quoted} };`);
  }
  if ('default' in namespace) lines.push('export default m.default;');
  return lines.join('\n');
}
