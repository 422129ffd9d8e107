/**
 * The root logger factory: pino with secrets redacted, pretty output only on a TTY.
 *
 * @module
 */
import { type DestinationStream, type Level, type LogFn, type Logger, pino } from 'pino';
import { scrubErrorSerializer, scrubLogValue } from './scrub.js';

/** Paths whose values are replaced by `[redacted]` in every log line. */
export const REDACTED_PATHS: readonly string[] = [
  'access_token',
  'accessToken',
  'client_secret',
  'clientSecret',
  'authorization',
  'Authorization',
  'token',
  '*.access_token',
  '*.accessToken',
  '*.client_secret',
  '*.clientSecret',
  '*.authorization',
  '*.Authorization',
  '*.token',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Minimum level (default: `LOG_LEVEL` from the environment when it names a level, else `info`). */
  readonly level?: Level | 'silent';
  /** Logger name, written as `name` on every line. */
  readonly name?: string;
  /** Where to write (default stdout); when given, output is always JSON. */
  readonly destination?: DestinationStream;
  /** Force pretty output on or off (default: only when stdout is a TTY). */
  readonly pretty?: boolean;
}

/**
 * Creates the root pino logger. Components take children: `logger.child({component: 'engine'})`.
 *
 * @param options - level, name, destination
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? levelFromEnv(process.env.LOG_LEVEL);
  const base = {
    level,
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    // The paths above reach fixed depths; this hides secrets at any depth of a record (errors, arrays,
    // strings) and of the message text; `scrubChildren` does the same for a child logger's bindings.
    formatters: {
      log: (record: Record<string, unknown>) => scrubLogValue(record) as Record<string, unknown>,
    },
    hooks: {
      logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
        const scrubbed: unknown[] = args.map(loggable);
        // `logger.error(err)` takes its message from the error's: given here, scrubbed.
        const [first, second] = scrubbed;
        if (first instanceof Error && typeof second !== 'string') {
          scrubbed.splice(1, 0, scrubLogValue(first.message));
        }
        method.apply(this, scrubbed as Parameters<LogFn>);
      },
    },
    serializers: { err: scrubErrorSerializer },
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  if (options.destination !== undefined) return scrubChildren(pino(base, options.destination));
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  if (pretty) {
    return scrubChildren(
      pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } }),
    );
  }
  return scrubChildren(pino(base));
}

/**
 * A log call's argument as pino can write it: a string scrubbed; a Symbol as its text (pino wrote
 * `"msg":undefined`, no JSON); an object with no prototype after the first argument (a format
 * argument) copied into a plain one (pino's `%s` threw `Cannot convert object to primitive value`).
 * What a strategy's `ctx.log` is given is its code's, unchecked.
 */
function loggable(arg: unknown, index: number): unknown {
  if (typeof arg === 'string') return scrubLogValue(arg);
  if (typeof arg === 'symbol') return scrubLogValue(arg.toString());
  if (index > 0 && typeof arg === 'object' && arg !== null && Object.getPrototypeOf(arg) === null)
    return { ...arg };
  return arg;
}

/**
 * Makes every child of `root` (and their children, which inherit the method) scrub its bindings
 * at any depth. pino writes a child's bindings once, when the child is made, through neither the
 * `log` formatter nor the `bindings` one (children reset it), so the bindings are scrubbed before.
 */
function scrubChildren(root: Logger): Logger {
  const child = root.child;
  root.child = function scrubbedChild(this: Logger, bindings, childOptions) {
    const options =
      typeof childOptions?.msgPrefix === 'string'
        ? { ...childOptions, msgPrefix: scrubLogValue(childOptions.msgPrefix) as string }
        : childOptions;
    return child.call(this, scrubLogValue(bindings) as typeof bindings, options);
  } as Logger['child'];
  return root;
}

const LEVELS: ReadonlySet<string> = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** `LOG_LEVEL` when it names a pino level, else `info`. */
function levelFromEnv(value: string | undefined): Level | 'silent' {
  return value !== undefined && LEVELS.has(value) ? (value as Level | 'silent') : 'info';
}

/** The pino logger type returned by {@link createLogger}. */
export type { Logger };
