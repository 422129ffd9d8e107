/**
 * Performs one logical call: waits for a rate-limit token, adds the bearer token and the account
 * header, sends, validates the answer with zod, and repeats what may be repeated.
 *
 * @module
 */
import type { Clock, Logger, RateLimitGroup } from '@hoga/core';
import type { SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { ConnectorConfig } from '../config.js';
import {
  AuthenticationError,
  BrokerApiError,
  ConflictError,
  NetworkError,
  NetworkFailure,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
} from '../errors.js';
import { errorFromResponse, withoutSecrets } from '../http/error-from-response.js';
import type { HttpResponse, HttpTransport } from '../http/http-transport.js';
import type { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { innermostIssue } from '../schemas/primitives.js';
import type { TokenManager } from '../token/token-manager.js';
import { backoffDelay, isRetryable, isUnreachable, RetryMode, sleep } from './retry-policy.js';

/** 401 codes after which a fresh token may help. */
const TOKEN_CODES = new Set(['token-revoked', 'expired-token', 'invalid-token']);

/**
 * How often one call is sent again at once after meeting a keep-alive connection the server had
 * closed (see `NetworkError.staleConnection`); the idle connections are closed with the first.
 */
const MAX_STALE_RESENDS = 2;

/** How often a keyed create answered 409 `request-in-progress` is asked again at most. */
const MAX_IN_PROGRESS_WAITS = 120;

/** Query values; `undefined` entries are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** Per-call options a caller may pass to any client method. */
export interface CallOptions {
  /** Aborts the call, including waits for rate-limit tokens and back-off. */
  readonly signal?: AbortSignal | undefined;
  /** Queue priority inside the rate-limit group. */
  readonly priority?: RequestPriority | undefined;
  /** Overrides the configured per-request timeout. */
  readonly timeoutMs?: number | undefined;
}

/** One logical call. */
export interface CallSpec<T> {
  readonly endpoint: string;
  readonly group: RateLimitGroup;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Query;
  /** JSON body (POST). */
  readonly json?: unknown;
  /** Form body (token endpoint). */
  readonly form?: Readonly<Record<string, string>>;
  /** Send the bearer token (all but the token endpoint). */
  readonly auth: boolean;
  /** Send the account header. */
  readonly account: boolean;
  /** Schema of the whole body (envelope included). */
  readonly schema: z.ZodType<T, unknown>;
  readonly retry: RetryMode;
  readonly priority: RequestPriority;
  /** For {@link RetryMode.KEYED_CREATE}: retries stop once this time (clock ms) has passed. */
  readonly retryUntilMs?: number;
  /** The answer carries a secret (the token endpoint's access token): errors never quote its body. */
  readonly secretBody?: boolean;
}

/** Collaborators of {@link RequestExecutor}. */
export interface RequestExecutorDeps {
  readonly config: ConnectorConfig;
  readonly transport: HttpTransport;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  /** Set after construction (the token manager issues through this executor). */
  tokens?: TokenManager;
  /** Resolves the account header value. */
  accountSeq?: (signal?: AbortSignal) => Promise<number>;
  /**
   * Told that the broker answered 404 `account-not-found` for the account sent; true when the call
   * may be sent again with the account resolved anew (a remembered account, not a configured one).
   */
  accountRefused?: (accountSeq: number) => Promise<boolean>;
  /** Receives retries, 429s and token refreshes (never a token or a secret). */
  readonly logger?: Logger | undefined;
}

/** Counters of what the executor did (for figures and tests). */
export interface ExecutorStats {
  requests: number;
  retries: number;
  rateLimited: number;
  /** 429s per rate-limit group. */
  rateLimitedByGroup: Partial<Record<RateLimitGroup, number>>;
  tokenRefreshes: number;
  /**
   * Calls sent again at once, on a new connection, after a reused keep-alive connection turned
   * out closed by the server (not counted in `retries`: nothing failed at the broker).
   */
  staleResends: number;
}

/** See the module description. */
export class RequestExecutor {
  /** What happened so far. */
  readonly stats: ExecutorStats = {
    requests: 0,
    retries: 0,
    rateLimited: 0,
    rateLimitedByGroup: {},
    tokenRefreshes: 0,
    staleResends: 0,
  };

  /** Set by {@link close}: a call that fails from then on is not repeated. */
  private closed = false;

  /** @param deps - transport, limiter, clock, scheduler, token manager */
  constructor(private readonly deps: RequestExecutorDeps) {}

  /**
   * The client is closing: calls still in flight fail with their own failure instead of being
   * repeated (their caller has given up on them; before, each logged a retry after the command
   * had already ended, and a repeat could even reach the broker).
   */
  close(): void {
    this.closed = true;
  }

  /**
   * Sets the token manager (it issues through this executor, so it is created after it).
   *
   * @param tokens - the shared token manager
   */
  attachTokens(tokens: TokenManager): void {
    this.deps.tokens = tokens;
  }

  /**
   * Performs a call.
   *
   * @param spec - what to call and how it may be repeated
   * @param options - signal, priority and timeout overrides
   * @returns the validated body
   * @throws `BrokerApiError` subclasses, or {@link ResponseShapeError}
   */
  async execute<T>(spec: CallSpec<T>, options: CallOptions = {}): Promise<T> {
    const { limiter, clock, scheduler, config } = this.deps;
    const signal = options.signal;
    const priority = options.priority ?? spec.priority;
    let retries = 0;
    let tokenRetries = 0;
    let inProgressWaits = 0;
    let staleResends = 0;
    let accountResends = 0;
    let previous: unknown;
    for (;;) {
      // closed while waiting to repeat a failed attempt: that failure is the answer
      if (this.closed && previous !== undefined) throw previous;
      // The slot's token is spent when the request leaves (depart), not when its turn comes.
      const waitStart = clock.nowMs();
      const permit = await limiter.reserve(spec.group, priority, signal, spec.endpoint);
      const waitedMs = clock.nowMs() - waitStart;
      if (waitedMs >= 250) {
        this.deps.logger?.info(
          { endpoint: spec.endpoint, group: spec.group, waitedMs },
          'waited for the rate limit',
        );
      }
      if (spec.form !== undefined)
        this.deps.logger?.info({ endpoint: spec.endpoint }, 'requesting an access token');
      let accessToken: string | null = null;
      let sentAccount: number | null = null;
      let failure: unknown;
      try {
        const headers: Record<string, string> = { accept: 'application/json' };
        if (spec.auth) {
          const token = await this.deps.tokens!.token(signal);
          accessToken = token.accessToken;
          headers.authorization = `Bearer ${token.accessToken}`;
        }
        if (spec.account) {
          sentAccount = await this.deps.accountSeq!(signal);
          headers[config.accountHeader.toLowerCase()] = String(sentAccount);
        }
        let body: string | undefined;
        if (spec.form !== undefined) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = new URLSearchParams(spec.form).toString();
        } else if (spec.json !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(spec.json);
        }
        this.stats.requests++;
        permit.depart();
        const response = await this.deps.transport.send({
          endpoint: spec.endpoint,
          method: spec.method,
          url: this.url(spec.path, spec.query),
          headers,
          ...(body === undefined ? {} : { body }),
          timeoutMs: options.timeoutMs ?? config.requestTimeoutMs,
          signal,
        });
        limiter.observe(spec.group, response.headers);
        permit.answered(); // the server has counted it by now: the token is spent at this instant
        // What the request carried that an answer must never repeat: a gateway refusing it may quote
        // the form (the client secret) or the Authorization header (the access token).
        const secrets = [spec.form?.client_secret, accessToken].filter((s): s is string => s != null);
        if (response.status >= 200 && response.status < 300) return this.parse(spec, response, secrets);
        failure = errorFromResponse(spec.endpoint, response, clock.nowMs(), secrets);
      } catch (error) {
        // An abort while the token or the account was awaited rejects with the signal's reason (a
        // DOMException): give the caller the same typed error as an abort anywhere else.
        failure =
          signal?.aborted === true && !(error instanceof BrokerApiError)
            ? new NetworkError(
                spec.endpoint,
                NetworkFailure.ABORTED,
                'aborted before sending (waiting for the access token or the account)',
                error,
              )
            : error;
      }
      // Sent: the token is spent now, when the answer (or the failure) came back; never sent (no
      // token, aborted): the slot is given back.
      permit.release();
      previous = failure;
      if (this.closed) throw failure;
      if (failure instanceof RateLimitError) {
        this.stats.rateLimited++;
        this.stats.rateLimitedByGroup[spec.group] = (this.stats.rateLimitedByGroup[spec.group] ?? 0) + 1;
        permit.refused(failure.retryAfterMs);
      }
      if (
        failure instanceof AuthenticationError &&
        failure.status === 401 &&
        TOKEN_CODES.has(failure.code) &&
        accessToken !== null &&
        tokenRetries < 2
      ) {
        tokenRetries++;
        this.stats.tokenRefreshes++;
        this.deps.logger?.info({ endpoint: spec.endpoint, code: failure.code }, 'token refused; refreshing');
        await this.deps.tokens!.rejected(accessToken, signal);
        continue;
      }
      if (
        failure instanceof NotFoundError &&
        failure.code === 'account-not-found' &&
        sentAccount !== null &&
        accountResends < 1 &&
        this.deps.accountRefused !== undefined &&
        (await this.deps.accountRefused(sentAccount))
      ) {
        // The broker refused the account before acting on the call (it checks the header first),
        // so even an order may be sent again, once, with the account resolved anew.
        accountResends++;
        this.deps.logger?.debug(
          { endpoint: spec.endpoint, accountSeq: sentAccount },
          'account not found; resolving the account again',
        );
        continue;
      }
      const inWindow = spec.retryUntilMs === undefined || clock.nowMs() < spec.retryUntilMs;
      if (
        spec.retry === RetryMode.KEYED_CREATE &&
        failure instanceof ConflictError &&
        failure.code === 'request-in-progress' &&
        inWindow &&
        inProgressWaits < MAX_IN_PROGRESS_WAITS
      ) {
        // The first request is still being processed: ask again later; this is no failure.
        inProgressWaits++;
        this.deps.logger?.debug(
          { endpoint: spec.endpoint, requestId: failure.requestId },
          'create still in progress',
        );
        await sleep(
          scheduler,
          Math.min(config.backoffMaxMs, Math.max(config.backoffBaseMs, 250)),
          signal,
          spec.endpoint,
        );
        continue;
      }
      if (
        failure instanceof NetworkError &&
        failure.staleConnection &&
        spec.retry !== RetryMode.UNSAFE &&
        inWindow &&
        staleResends < MAX_STALE_RESENDS
      ) {
        // A reused connection the server had just closed: the request is sent again at once on a
        // new one, as a read (or a keyed create, which the broker answers once) may be. A request
        // that may not be repeated is not: the server may have failed while processing it.
        staleResends++;
        this.stats.staleResends++;
        this.deps.logger?.debug(
          { endpoint: spec.endpoint, attempt: staleResends },
          'keep-alive connection closed by the server; sending again on a new connection',
        );
        continue;
      }
      const unreachableStop = !config.retryUnreachable && isUnreachable(failure);
      if (retries < config.maxRetries && inWindow && !unreachableStop && isRetryable(spec.retry, failure)) {
        const delay = backoffDelay(retries, failure, {
          baseMs: config.backoffBaseMs,
          maxMs: config.backoffMaxMs,
        });
        retries++;
        this.stats.retries++;
        this.deps.logger?.warn(
          {
            endpoint: spec.endpoint,
            code: (failure as { code?: unknown }).code,
            requestId: (failure as { requestId?: unknown }).requestId ?? null,
            attempt: retries,
            of: config.maxRetries + 1,
            delayMs: Math.round(delay),
          },
          'retrying',
        );
        await sleep(scheduler, delay, signal, spec.endpoint);
        continue;
      }
      throw failure;
    }
  }

  private url(path: string, query: Query | undefined): URL {
    const url = new URL(`${this.deps.config.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  private parse<T>(spec: CallSpec<T>, response: HttpResponse, secrets: readonly string[]): T {
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch (error) {
      // A secret body is not quoted, nor is the parser's error (V8 quotes the text around a bad token).
      if (spec.secretBody === true) {
        throw new ResponseShapeError(
          spec.endpoint,
          '(body)',
          `expected JSON, found ${response.body.length} characters of something else (not shown: the answer carries the access token)`,
        );
      }
      // A body quoting the request's token or secret is shown without it, and without the
      // parser's error, which quotes the body as it came.
      const shown = withoutSecrets(response.body, secrets);
      throw new ResponseShapeError(
        spec.endpoint,
        '(body)',
        `expected JSON, found ${shown.slice(0, 80)}`,
        shown === response.body ? { cause: error } : {},
      );
    }
    const parsed = spec.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const first = parsed.error.issues[0];
    const issue = first === undefined ? undefined : innermostIssue(first);
    const field =
      issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    throw new ResponseShapeError(spec.endpoint, field, issue?.message ?? 'invalid', {
      details: { issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) },
    });
  }
}
