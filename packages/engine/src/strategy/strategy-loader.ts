/**
 * Loads a strategy class from a `.ts` file by path, with no build step: under tsx (the sources)
 * tsx compiles it; in the bundled `hoga` command Node strips its types and the hooks of
 * `strategy-imports.ts` give it the process's own `@hoga/engine` and `@hoga/core`.
 *
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineError, EngineErrorCode, thrownText } from '../engine-error.js';
import { isStrategyClass, type StrategyClass } from './strategy.js';
import { installStrategyImportHooks } from './strategy-imports.js';
import { loadPlace, noteStrategyFile } from './throw-place.js';

/** The files Node (with tsx, or its type stripping) imports as modules. */
const MODULE_EXTENSIONS: ReadonlySet<string> = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/**
 * Imports `file` and returns its strategy class: the default export when it is one, else the only
 * exported strategy class.
 *
 * @param file - path of the strategy's `.ts` file (relative to the working directory)
 * @throws {@link EngineError} `strategy-load-failed` when the file is missing, a directory or not a
 *   module (by its extension), fails to import, has a default export that is not a strategy class,
 *   or exports no (or more than one, without a default) strategy class
 */
export async function loadStrategyClass(file: string): Promise<StrategyClass> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new EngineError(EngineErrorCode.STRATEGY_LOAD_FAILED, `strategy file ${file} does not exist`);
  }
  // before: Node's words for importing these ("Directory import … is not supported resolving ES
  // modules imported from …/dist/…/chunk-….mjs", "needs an import attribute of type: json")
  if (statSync(path).isDirectory()) {
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file} is a directory: give the strategy's .ts file`,
    );
  }
  if (!MODULE_EXTENSIONS.has(extname(path).toLowerCase())) {
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file} is not a TypeScript or JavaScript file: give the strategy's .ts file`,
    );
  }
  installStrategyImportHooks();
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (cause) {
    // a syntax error's place from its caret, an error its top-level code threw from its stack
    const place = cause instanceof SyntaxError ? placeOf(cause) : loadPlace(cause, path);
    const what = cause instanceof Error ? cause.message + place + stripHint(cause) : thrownText(cause);
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file} failed to load: ${what}`,
      {
        cause,
      },
    );
  }
  const cls = strategyClassOf(module, file, abstractClassNames(path));
  checkStatics(cls, file);
  noteStrategyFile(cls, path);
  return cls;
}

/**
 * The names of the classes a strategy file declares `abstract` (its source read as text: the
 * keyword is gone once the types are stripped or compiled), which the loader never picks.
 */
function abstractClassNames(path: string): ReadonlySet<string> {
  // without its comments (a comment saying "abstract class Foo" makes no class abstract)
  const source = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return new Set(
    Array.from(source.matchAll(/\babstract\s+class\s+([A-Za-z_$][\w$]*)/g), (m) => m[1] as string),
  );
}

/**
 * The strategy class of a module: its default export, else its only exported strategy class that
 * the file does not declare `abstract`. Before, a default export that is no strategy class
 * (`export default { … }`, a function, a class not extending `Strategy`) was passed over for a
 * strategy class exported by name, unsaid; and a file exporting an abstract base and its one
 * concrete strategy was refused as two strategy classes, advising the base as the default; and an
 * abstract default export ran, and failed at its first abstract method.
 *
 * @param abstract - the names of the classes the file declares `abstract`
 * @throws {@link EngineError} `strategy-load-failed` naming the file: for a default export that is
 *   not a strategy class or is abstract (what it is, and the strategy classes it exports by name), for none at
 *   all, for more than one by name and no default (naming them)
 */
function strategyClassOf(
  module: Record<string, unknown>,
  file: string,
  abstract: ReadonlySet<string>,
): StrategyClass {
  const fallback = module.default;
  // an abstract default export would run and fail at its first abstract method (`this.x is not a
  // function`, mid-run): refused here, naming the classes to export instead
  const abstractDefault = isStrategyClass(fallback) && abstract.has(fallback.name);
  if (isStrategyClass(fallback) && !abstractDefault) return fallback;
  // a CommonJS module's default export is its `module.exports` object, holding the named ones
  const hasDefault = fallback !== undefined && fallback !== module['module.exports'];
  const exported = Object.entries(module)
    .filter(([key, value]) => key !== 'default' && isStrategyClass(value))
    .map(([, value]) => value as StrategyClass);
  const named = exported.filter((c) => !abstract.has(c.name));
  // the class the advice names: one no other exported class extends (a subclass, not its base)
  const example = (named.find((c) => !named.some((d) => d.prototype instanceof c)) ?? named[0])?.name;
  if (hasDefault) {
    const also =
      named.length === 0
        ? '; the file exports no class extending Strategy (from @hoga/engine)'
        : `; it also exports the strategy class${named.length > 1 ? 'es' : ''} ${names(named)}: export ${named.length > 1 ? 'the one to run' : 'it'} as the default (export default class ${example} …)`;
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file}: its default export is ${abstractDefault ? `the abstract class ${(fallback as StrategyClass).name}, which cannot run` : describeExport(fallback)}${also}`,
    );
  }
  if (named.length === 1 && named[0] !== undefined) return named[0];
  const onlyAbstract =
    exported.length > 0
      ? `strategy file ${file} exports only the abstract strategy class${exported.length > 1 ? 'es' : ''} ${names(exported)}: export a class extending ${exported.length > 1 ? 'one' : 'it'} that can run`
      : `strategy file ${file} exports no class extending Strategy (from @hoga/engine)`;
  throw new EngineError(
    EngineErrorCode.STRATEGY_LOAD_FAILED,
    named.length === 0
      ? onlyAbstract
      : `strategy file ${file} exports ${named.length} strategy classes, ${names(named)}, and none as the default: export the one to run as the default (export default class ${example} …), or give each its own file`,
  );
}

/** `A`, `A and B`, `A, B and C`. */
function names(classes: readonly StrategyClass[]): string {
  const all = classes.map((c) => c.name);
  return all.length < 2 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}

/**
 * What a default export that is no strategy class is, for the error: `an object, not a strategy
 * class`, `a function, not a strategy class`, `class X, which does not extend Strategy`.
 */
function describeExport(value: unknown): string {
  if (typeof value !== 'function') {
    if (value === null) return 'null, not a strategy class';
    if (Array.isArray(value)) return 'an array, not a strategy class';
    const what = typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
    return `${what}, not a strategy class`;
  }
  const anonymous = value.name === '' || value.name === 'default';
  if (!Function.prototype.toString.call(value).startsWith('class'))
    return `${anonymous ? 'a function' : `function ${value.name}`}, not a strategy class`;
  const name = anonymous ? 'a class' : `class ${value.name}`;
  // a Strategy of another copy of @hoga/engine (the strategy's own node_modules) is not this one's
  for (let p: unknown = Object.getPrototypeOf(value); typeof p === 'function'; p = Object.getPrototypeOf(p)) {
    if (p.name === 'Strategy')
      return `${name}, which extends a Strategy that is not this hoga's (another copy of @hoga/engine?)`;
  }
  return `${name}, which does not extend Strategy`;
}

/**
 * Where a syntax error is, when its message does not say: Node's own errors (its type stripping's
 * `ERR_INVALID_TYPESCRIPT_SYNTAX`, a JavaScript `SyntaxError`) keep the place in the stack only, as
 * a `file:line` line and the source line with a caret under the column. Answers
 * ` at file:line:column` and those two lines, or nothing for any other error.
 */
function placeOf(error: Error): string {
  if (!(error instanceof SyntaxError)) return '';
  const lines = (error.stack ?? '').split('\n');
  const head = /^(.+):(\d+)$/.exec(lines[0] ?? '');
  if (head === null) return '';
  const caret = lines.findIndex((l, i) => i > 1 && /^\s*\^+\s*$/.test(l));
  if (caret < 0) return '';
  const file = head[1]?.startsWith('file:') ? fileURLToPath(head[1]) : head[1];
  const column = (lines[caret] as string).indexOf('^') + 1;
  return ` at ${file}:${head[2]}:${column}\n${lines[caret - 1]}\n${(lines[caret] as string).trimEnd()}`;
}

/** What to write instead of each TypeScript construct Node's type stripping refuses. */
const STRIP_ADVICE: readonly (readonly [RegExp, string])[] = [
  [/\benum\b/, 'for an enum, write an object `as const` (const Side = { Buy: 0, Sell: 1 } as const)'],
  [
    /parameter property/,
    'for a parameter property (constructor(private x: T)), declare the field and assign it in the constructor',
  ],
  [/namespace|module declaration/, 'for a namespace, write plain exports (or a module of its own)'],
  [
    /import equals|export assignment/,
    'write import … from / export default instead of import = require() / export =',
  ],
];

/**
 * Advice for a file Node's type stripping refuses (`TypeScript enum is not supported in
 * strip-only mode`): the `hoga` command loads a strategy with it, which takes only TypeScript that
 * erases to JavaScript, while tsx (the user's own tests) compiles the same file. Before, Node's
 * message alone named a mode the user never chose. Answers nothing for any other error.
 */
function stripHint(error: Error): string {
  if (!/not supported in strip-only mode/.test(error.message)) return '';
  const advice = STRIP_ADVICE.find(([pattern]) => pattern.test(error.message))?.[1];
  return `\nhoga loads a strategy with Node's type stripping, which takes only TypeScript that erases to JavaScript: ${advice ?? 'write the construct as plain JavaScript with type annotations'}`;
}

/**
 * The class's `configSchema` and `warmupBars` as the engine reads them: a zod schema, and a whole
 * number of bars (0 or more). Before, `warmupBars = -3` or `'50'` was taken for none, unsaid, and a
 * `configSchema` that is not a schema (`{quantity: z.number()}`, the fields without `z.object`)
 * stopped the run with `unexpected error: schema.safeParse is not a function`.
 *
 * @throws {@link EngineError} `strategy-load-failed` naming the file, the class and the static
 */
function checkStatics(cls: StrategyClass, file: string): void {
  const schema: unknown = cls.configSchema;
  if (schema !== undefined && typeof (schema as { safeParse?: unknown } | null)?.safeParse !== 'function') {
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file}: ${cls.name}.configSchema is not a zod schema: declare it as z.object({…}) (z from @hoga/engine or zod)`,
    );
  }
  const warmup: unknown = cls.warmupBars;
  if (warmup !== undefined && !(Number.isSafeInteger(warmup) && (warmup as number) >= 0)) {
    const found = typeof warmup === 'string' ? JSON.stringify(warmup) : String(warmup);
    throw new EngineError(
      EngineErrorCode.STRATEGY_LOAD_FAILED,
      `strategy file ${file}: ${cls.name}.warmupBars: expected a whole number of bars (0 or more), found ${found}`,
    );
  }
}
