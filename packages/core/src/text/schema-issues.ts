/**
 * What a schema check failed on, said the same way wherever hoga reads a file or an option checked
 * with zod (a strategy's config, the risk configuration, the simulator's calendar declaration):
 * one line per field, `field: found <the value>, expected <what the schema wanted>`, the value read
 * from the input rather than zod's own words (`✖ Invalid input: expected boolean, received string
 * → at enabled` did not show the value). It reads zod 4's issues by their shape, so core needs no
 * zod of its own.
 *
 * @module
 */

/** One failed field. */
export interface SchemaIssue {
  /** Dotted path of the field (`fast`, `symbols.0`), or `rootName` for the whole value. */
  readonly field: string;
  /** The value found there (`undefined` when missing). */
  readonly value: unknown;
  /** What was expected, from the schema's message. */
  readonly expected: string;
}

/** The issue fields read here (zod's `$ZodIssue`, of any code). */
export interface SchemaIssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** `unrecognized_keys`: the keys not declared. */
  readonly keys?: readonly string[];
  /** `invalid_union`: each option's issues. */
  readonly errors?: readonly (readonly SchemaIssueLike[])[];
}

/**
 * Each failed field of a check, with the value `raw` holds there; an undeclared key is said to be
 * no such field.
 *
 * @param error - the schema's failure (a `ZodError`)
 * @param raw - the value checked (the values shown are read from it)
 * @param rootName - the field named for an issue of the value as a whole (default `(value)`)
 */
export function schemaIssues(
  error: { readonly issues: readonly SchemaIssueLike[] },
  raw: unknown,
  rootName = '(value)',
): SchemaIssue[] {
  return error.issues.flatMap((issue): SchemaIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return (issue.keys ?? []).map((key) => ({
        field: [...path, key].join('.'),
        value: valueAt(raw, [...issue.path, key]),
        expected: NO_SUCH_FIELD,
      }));
    }
    return [
      {
        field: path.length === 0 ? rootName : path.join('.'),
        value: valueAt(raw, issue.path),
        expected: expectation(issue),
      },
    ];
  });
}

/** What an undeclared field is said to be expected as. */
export const NO_SUCH_FIELD = 'no such field (a typo?)';

/**
 * The first failed field of a check (a message names one), or, for a failure that names none, the
 * value as a whole (`rootName`) as not valid.
 */
export function firstSchemaIssue(
  error: { readonly issues: readonly SchemaIssueLike[] },
  raw: unknown,
  rootName: string,
): SchemaIssue {
  return schemaIssues(error, raw, rootName)[0] ?? { field: rootName, value: raw, expected: 'a valid value' };
}

/** `field: found <value>, expected <expected>`. */
export function schemaIssueLine(issue: SchemaIssue): string {
  return `${issue.field}: ${schemaIssueText(issue)}`;
}

/** `found <value>, expected <expected>` (the line without its field). */
export function schemaIssueText(issue: SchemaIssue): string {
  return `found ${describeFound(issue.value)}, expected ${issue.expected}`;
}

/** What a refinement without a message of its own expected (zod says only `Invalid input`). */
const UNSAID_REFINEMENT =
  "what the schema's refinement accepts (it gives no message: give it one, e.g. {message: 'less than slow', path: ['fast']})";

/**
 * What the schema expected, from zod's issue: `Invalid input: expected number, received string`
 * becomes `number`, `Too small: expected number to be >0` becomes `number to be >0`, `Invalid
 * string: must match pattern /x/` becomes `string to match pattern /x/`, `Invalid email address`
 * becomes `a valid email address`; a union's, each option's expectation (`"BUY" or "SELL"`),
 * where zod says `Invalid input`; a refinement's own message stays as written (phrased to follow
 * "expected": `less than slow`), and one without a message says so.
 */
function expectation(issue: Pick<SchemaIssueLike, 'code' | 'message' | 'errors'>): string {
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

/** The value as JSON writes it (`nothing` when missing; Infinity and NaN as such, not null). */
function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  // JSON writes Infinity and NaN as null (`1e400` in a JSON file reads as Infinity)
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
