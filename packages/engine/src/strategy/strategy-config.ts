/**
 * Validation of a strategy's config against its zod schema, with a message that names the field,
 * the value found and what was expected.
 *
 * @module
 */
import { NO_SUCH_FIELD, type SchemaIssue, schemaIssueLine, schemaIssues } from '@hoga/core';
import type { ZodError, ZodType } from 'zod';
import { EngineError, EngineErrorCode } from '../engine-error.js';

/** One failed field of a strategy config (`field` is `(config)` for the whole object). */
export type ConfigIssue = SchemaIssue;

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
    return [{ field: [...path, key].join('.'), value: fields[key], expected: NO_SUCH_FIELD }];
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
  return `  ${schemaIssueLine(issue)}`;
}

function issuesOf(error: ZodError, raw: unknown): ConfigIssue[] {
  return schemaIssues(error, raw, '(config)');
}
