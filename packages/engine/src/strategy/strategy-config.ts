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
    const lines = issues.map((i) => `  ${i.field}: found ${describe(i.value)}, expected ${i.expected}`);
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

/**
 * The top-level fields of `raw` that a plain `z.object` schema does not declare. zod drops them
 * without a word, so a misspelt field (`stopLos`) would leave its setting at the default unseen;
 * they are errors here as they are with `z.strictObject`. A schema that takes other fields on
 * purpose says so (`z.looseObject`, or a `catchall`) and is left alone. Read from the schema's
 * definition, so a strategy's own copy of zod is understood too.
 */
function unknownFields(schema: ZodType, raw: unknown, path: readonly string[] = []): ConfigIssue[] {
  const def = objectDefOf(schema);
  if (def === undefined || def.catchall !== undefined || def.shape === undefined) return [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const declared = def.shape as Record<string, ZodType>;
  return Object.keys(raw).flatMap((key): ConfigIssue[] => {
    const value = (raw as Record<string, unknown>)[key];
    // a nested object's fields too (before, `{"stop": {"pct": 1, "typo": 2}}` lost `typo` unseen)
    if (Object.hasOwn(declared, key)) return unknownFields(declared[key] as ZodType, value, [...path, key]);
    return [{ field: [...path, key].join('.'), value, expected: 'no such field (a typo?)' }];
  });
}

/** The definition of a `z.object` schema, through `optional`, `nullable`, `default` and the like. */
function objectDefOf(schema: ZodType): { catchall?: unknown; shape?: object } | undefined {
  type Def = { type?: string; catchall?: unknown; shape?: object; innerType?: unknown };
  let def = (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  for (let depth = 0; def !== undefined && def.type !== 'object' && depth < 8; depth++) {
    def = (def.innerType as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  }
  return def?.type === 'object' ? def : undefined;
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
        expected: expectation(issue.message),
      },
    ];
  });
}

/**
 * What the schema expected, from zod's message: `Invalid input: expected number, received string`
 * becomes `number`, `Too small: expected number to be >0` becomes `number to be >0`; a custom
 * message (a refinement's) stays as written.
 */
function expectation(message: string): string {
  const m = /^[A-Z][A-Za-z ]*: expected (.*?)(?:, received .*)?$/.exec(message);
  return m?.[1] ?? message;
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
