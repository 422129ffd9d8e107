/**
 * Validation of a strategy's config against its zod schema, with a message that names the field,
 * the value found and what was expected.
 *
 * @module
 */
import type { ZodError, ZodType } from 'zod';
import { EngineError, EngineErrorCode } from '../engine-error.js';

/** One failed field of a strategy config. */
export interface ConfigIssue {
  /** Dotted path of the field (`fast`, `symbols.0`), or `(config)` for the whole object. */
  readonly field: string;
  /** The value found there (`undefined` when missing). */
  readonly value: unknown;
  /** What was expected, from the schema's message. */
  readonly expected: string;
}

/** A strategy config failed its schema (code `invalid-strategy-config`; the CLI exits 2). */
export class StrategyConfigError extends EngineError {
  /**
   * @param strategy - the strategy class's name
   * @param issues - each failed field
   */
  constructor(
    readonly strategy: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    const lines = issues.map(issueLine);
    super(
      EngineErrorCode.INVALID_STRATEGY_CONFIG,
      `invalid config for strategy ${strategy}:\n${lines.join('\n')}`,
      { details: { strategy, issues } },
    );
    this.name = 'StrategyConfigError';
  }
}

/**
 * Parses `raw` with `schema` (defaults applied).
 *
 * @param strategy - the strategy's name, for the message
 * @param schema - the class's `configSchema`, or undefined for a strategy without config
 * @param raw - the config as given (`{}` when none; null is refused)
 * @throws {@link StrategyConfigError} naming each field, its value and what was expected
 */
export function parseStrategyConfig<C>(strategy: string, schema: ZodType<C> | undefined, raw: unknown): C {
  if (schema === undefined) return (raw ?? {}) as C;
  // a config given as null (a file holding `null`) is refused, not read as the defaults
  if (raw === null)
    throw new StrategyConfigError(strategy, [{ field: '(config)', value: null, expected: 'an object' }]);
  const unknown = unknownFields(schema, raw);
  const result = schema.safeParse(raw ?? {});
  if (result.success && unknown.length === 0) return result.data;
  throw new StrategyConfigError(strategy, [
    ...(result.success ? [] : issuesOf(result.error, raw)),
    ...unknown,
  ]);
}

/** The part of a zod schema's definition read here (zod 4's `_zod.def`). */
interface SchemaDef {
  readonly type?: string;
  readonly catchall?: unknown;
  readonly shape?: object;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly element?: unknown;
  readonly items?: readonly unknown[];
  readonly rest?: unknown;
  readonly valueType?: unknown;
}

/** Types that wrap one schema (`innerType`) without changing the shape of the value. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'catch',
  'readonly',
  'nonoptional',
]);

/**
 * The fields of `raw` that a plain `z.object` schema does not declare, at any depth: a nested
 * object's, and an object's inside an array, a tuple or a record (`legs.1.qtty`). zod drops them
 * without a word, so a misspelt field (`stopLos`) would leave its setting at the default unseen;
 * they are errors here as they are with `z.strictObject`. A schema that takes other fields on
 * purpose says so (`z.looseObject`, or a `catchall`) and is left alone. Read from the schema's
 * definition, so a strategy's own copy of zod is understood too. Before, only objects within
 * objects were read: `{"legs": [{"symbol": "AAPL", "qtty": 5}]}` bought the default quantity.
 */
function unknownFields(schema: unknown, raw: unknown, path: readonly string[] = []): ConfigIssue[] {
  const def = unwrap(schema);
  if (def === undefined || raw === null || typeof raw !== 'object') return [];
  const at = (key: string | number, inner: unknown, value: unknown): ConfigIssue[] =>
    unknownFields(inner, value, [...path, String(key)]);
  if (def.type === 'array' && Array.isArray(raw)) return raw.flatMap((v, i) => at(i, def.element, v));
  if (def.type === 'tuple' && Array.isArray(raw))
    return raw.flatMap((v, i) => at(i, def.items?.[i] ?? def.rest, v));
  if (Array.isArray(raw)) return [];
  const fields = raw as Record<string, unknown>;
  if (def.type === 'record') return Object.keys(fields).flatMap((k) => at(k, def.valueType, fields[k]));
  if (def.type !== 'object' || def.catchall !== undefined || def.shape === undefined) return [];
  const declared = def.shape as Record<string, unknown>;
  return Object.keys(fields).flatMap((key): ConfigIssue[] => {
    // a nested object's fields too (before, `{"stop": {"pct": 1, "typo": 2}}` lost `typo` unseen)
    if (Object.hasOwn(declared, key)) return at(key, declared[key], fields[key]);
    return [{ field: [...path, key].join('.'), value: fields[key], expected: 'no such field (a typo?)' }];
  });
}

/** A schema's definition through `optional`, `nullable`, `default` and the like, and a pipe's input. */
function unwrap(schema: unknown): SchemaDef | undefined {
  let def = defOf(schema);
  for (let depth = 0; def !== undefined && depth < 16; depth++) {
    if (def.type === 'pipe') def = defOf(def.in);
    else if (def.type !== undefined && WRAPPERS.has(def.type)) def = defOf(def.innerType);
    else return def;
  }
  return undefined;
}

function defOf(schema: unknown): SchemaDef | undefined {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

/**
 * The lines a config file's failed fields print as (`  field: found "x", expected number`), for any
 * file checked with zod: a strategy's config, the risk configuration.
 *
 * @param error - the schema's failure
 * @param raw - the value parsed (the values shown are read from it)
 */
export function configIssueLines(error: ZodError, raw: unknown): string[] {
  return issuesOf(error, raw).map(issueLine);
}

function issueLine(issue: ConfigIssue): string {
  return `  ${issue.field}: found ${describe(issue.value)}, expected ${issue.expected}`;
}

function issuesOf(error: ZodError, raw: unknown): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: [...path, key].join('.'),
        value: valueAt(raw, [...issue.path, key]),
        expected: 'no such field (a typo?)',
      }));
    }
    return [
      {
        field: path.length === 0 ? '(config)' : path.join('.'),
        value: valueAt(raw, issue.path),
        expected: expectation(issue),
      },
    ];
  });
}

/** What a refinement without a message of its own expected (zod says only `Invalid input`). */
const UNSAID_REFINEMENT =
  "what the schema's refinement accepts (it gives no message: give it one, e.g. {message: 'less than slow', path: ['fast']})";

/** The issue fields {@link expectation} reads (zod's `$ZodIssue`, of any code). */
interface IssueLike {
  readonly code?: string;
  readonly message: string;
  readonly errors?: readonly (readonly IssueLike[])[];
}

/**
 * What the schema expected, from zod's issue: `Invalid input: expected number, received string`
 * becomes `number`, `Too small: expected number to be >0` becomes `number to be >0`, `Invalid
 * string: must match pattern /x/` becomes `string to match pattern /x/`, `Invalid email address`
 * becomes `a valid email address`; a union's, each option's expectation (`"BUY" or "SELL"`),
 * where zod says `Invalid input`; a refinement's own message stays as written (phrased to follow
 * "expected": `less than slow`), and one without a message says so.
 */
function expectation(issue: IssueLike): string {
  if (issue.code === 'invalid_union') {
    const options = (issue.errors ?? []).map((option) => {
      const only = option.length === 1 ? option[0] : undefined;
      return only === undefined ? undefined : expectation(only);
    });
    if (options.length > 0 && options.every((o) => o !== undefined))
      return [...new Set(options)].join(' or ');
    return "one of the union's options";
  }
  const message = issue.message;
  if (issue.code === 'custom' && message === 'Invalid input') return UNSAID_REFINEMENT;
  const expected = /^[A-Z][A-Za-z ]*: expected (.*?)(?:, received .*)?$/.exec(message);
  if (expected?.[1] !== undefined) return expected[1];
  // a message of the schema's own phrased as this one is (`expected …, found …`): its expectation
  const own = /^expected ([\s\S]*?)(?:, found [\s\S]*)?$/.exec(message);
  if (own?.[1] !== undefined) return own[1];
  const must = /^Invalid ([a-z]+): must (.*)$/.exec(message);
  if (must?.[1] !== undefined && must[2] !== undefined) return `${must[1]} to ${must[2]}`;
  const format = /^Invalid ([^:]+)$/.exec(message);
  if (format?.[1] !== undefined && format[1] !== 'input') return `a valid ${format[1]}`;
  return message;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = raw;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  // JSON writes Infinity and NaN as null (`1e400` in a JSON file reads as Infinity)
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
