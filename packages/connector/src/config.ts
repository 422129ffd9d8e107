/**
 * The connector's configuration: one zod schema, parsed once at the edge.
 *
 * @module
 */
import { z } from 'zod';
import { ConnectorConfigError } from './errors.js';

const positiveMs = (fallback: number) => z.number().int().positive().default(fallback);

/** Zod schema of {@link ConnectorConfig} (input form: defaults may be omitted). */
export const ConnectorConfigSchema = z.object({
  /** Broker base address, e.g. `https://openapi.example.com` or `http://127.0.0.1:18080`. */
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL like "http://127.0.0.1:18080"' })
    // Node's http would send them as Basic auth of the token request only (the API calls carry the
    // bearer token), and the password would be shown and kept wherever the base URL is.
    .refine((url) => !URL.canParse(url) || (new URL(url).username === '' && new URL(url).password === ''), {
      error:
        'expected the address without a user name or password (the broker is signed in to with the client id and secret)',
    })
    .transform((url) => url.replace(/\/+$/, '')),
  /** OAuth client id. */
  clientId: z.string().trim().min(1, 'expected a non-empty client id'),
  /** OAuth client secret (never logged). */
  clientSecret: z.string().min(1, 'expected a non-empty client secret'),
  /** Account used for account-bound calls; when absent the first account of the list is used. */
  accountSeq: z
    .union([
      z.number().int().nonnegative(),
      z.string().regex(/^\d+$/, 'expected digits only').transform(Number),
    ])
    .optional(),
  /** Name of the account header (the spec's `X-Service-Account` unless a deployment differs). */
  accountHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'expected an HTTP header name')
    .default('X-Service-Account'),
  /** Per-request timeout. */
  requestTimeoutMs: positiveMs(10_000),
  /**
   * An idle keep-alive connection is closed after this long (default 4 s, below the common 5 s of
   * a server, so the client closes it first; a server's `Keep-Alive: timeout=` hint lowers it).
   * Lower it for a broker that closes idle connections sooner.
   */
  idleSocketMs: positiveMs(4_000),
  /** Renew the token this long before it expires (half its lifetime before, for a shorter-lived token). */
  tokenRenewBeforeMs: positiveMs(300_000),
  /** A lease on the shared token cache is taken over after this long. */
  tokenLockTtlMs: positiveMs(15_000),
  /**
   * Retry a connection that was refused or whose host name is unknown (default true, for an engine
   * that should ride out a broker restart; the CLI sets false so an unreachable broker fails at once).
   */
  retryUnreachable: z.boolean().default(true),
  /** Retries after the first attempt for retryable failures. */
  maxRetries: z.number().int().min(0).max(10).default(4),
  /** First back-off step (the spec recommends 1 s, 2 s, 4 s, ...). */
  backoffBaseMs: positiveMs(1_000),
  /** Upper bound of one back-off step. */
  backoffMaxMs: positiveMs(16_000),
  /** How long a repeated create with the same `clientOrderId` stays safe (the broker's 10 minutes). */
  clientOrderIdWindowMs: positiveMs(600_000),
  /** Fraction of each group's limit the client allows itself (1 = the full published limit). */
  rateLimitUtilization: z.number().positive().max(1).default(1),
});

/** Validated connector configuration. */
export type ConnectorConfig = z.output<typeof ConnectorConfigSchema>;
/** Configuration as written by a user (defaults may be omitted). */
export type ConnectorConfigInput = z.input<typeof ConnectorConfigSchema>;

/**
 * Validates a configuration.
 *
 * @param input - raw configuration (from flags, environment or code)
 * @returns the configuration with defaults filled in
 * @throws {@link ConnectorConfigError} listing every problem, with a prettified report
 */
export function parseConnectorConfig(input: unknown): ConnectorConfig {
  const result = ConnectorConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConnectorConfigError(issues, z.prettifyError(result.error));
}
