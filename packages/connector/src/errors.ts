/**
 * The connector's error hierarchy. Every error extends {@link ConnectorError}, which extends core's
 * `HogaError` and carries a stable kebab-case `code`. Errors answered by the broker are
 * {@link BrokerApiError}s, one subclass per family, carrying the HTTP status, the broker's code and
 * message, the request id and the `data` hint.
 *
 * @module
 */
import { HogaError, type HogaErrorOptions } from '@hoga/core';

/** Base class of every error raised by `@hoga/connector`. */
export class ConnectorError extends HogaError {
  /** Whether repeating the same request later may succeed. */
  readonly retryable: boolean;

  /**
   * @param code - stable kebab-case code
   * @param message - what was expected and what was found
   * @param options - cause, details and whether the failure is transient
   */
  constructor(
    code: string,
    message: string,
    options: HogaErrorOptions & { readonly retryable?: boolean } = {},
  ) {
    super(code, message, options);
    this.retryable = options.retryable ?? false;
  }
}

/** The connector's configuration is invalid (code `invalid-config`); `issues` lists each problem. */
export class ConnectorConfigError extends ConnectorError {
  /** One readable line per problem, e.g. `baseUrl: Invalid URL`. */
  readonly issues: readonly string[];

  /**
   * @param issues - one line per problem
   * @param pretty - the whole report, printed by the CLI
   */
  constructor(
    issues: readonly string[],
    readonly pretty: string,
  ) {
    super('invalid-config', `invalid connector configuration: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** An argument passed to a connector method was invalid (code `invalid-argument`); `field` names it. */
export class InvalidArgumentError extends ConnectorError {
  /**
   * @param field - the offending argument
   * @param message - what was expected and what was found
   */
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('invalid-argument', `${field}: ${message}`);
  }
}

/**
 * A response did not have the shape the spec describes (code `response-shape`). It names the
 * endpoint and the field; the raw body is kept (truncated) in `details`.
 */
export class ResponseShapeError extends ConnectorError {
  /**
   * @param endpoint - endpoint name, e.g. `getOrderbook`
   * @param field - dotted path of the offending field, e.g. `result.asks.0.price`
   * @param problem - what was expected and what was found
   * @param options - cause and details
   */
  constructor(
    readonly endpoint: string,
    readonly field: string,
    problem: string,
    options: HogaErrorOptions = {},
  ) {
    super('response-shape', `${endpoint}: unexpected response shape at ${field}: ${problem}`, options);
  }
}

/** Error families of broker answers and transport failures. */
export const ErrorFamily = {
  AUTHENTICATION: 'authentication',
  VALIDATION: 'validation',
  NOT_FOUND: 'not-found',
  CONFLICT: 'conflict',
  BUSINESS_RULE: 'business-rule',
  RATE_LIMIT: 'rate-limit',
  SERVER: 'server',
  NETWORK: 'network',
} as const;
/** One of {@link ErrorFamily}. */
export type ErrorFamily = (typeof ErrorFamily)[keyof typeof ErrorFamily];

/** Everything known about an error answer of the broker. */
export interface BrokerApiErrorInit {
  /** Endpoint name, e.g. `createOrder`. */
  readonly endpoint: string;
  /** HTTP status (0 for transport failures). */
  readonly status: number;
  /** The broker's code, e.g. `stock-not-found` (or OAuth's `invalid_client`). */
  readonly code: string;
  /** The broker's human-readable message. */
  readonly message: string;
  /** Request id from the envelope, else from `X-Request-Id`, `cf-ray`, `referenceId`, `x-amz-cf-id`. */
  readonly requestId: string | null;
  /** The envelope's `data` hint, if any. */
  readonly data?: Readonly<Record<string, unknown>> | null;
  /** Whether the same request may succeed later. */
  readonly retryable?: boolean;
  /** Underlying error. */
  readonly cause?: unknown;
}

/** An error answered by the broker (or a transport failure); see the family subclasses. */
export class BrokerApiError extends ConnectorError {
  /** The family this error belongs to. */
  readonly family: ErrorFamily;
  /** Endpoint name, e.g. `createOrder`. */
  readonly endpoint: string;
  /** HTTP status, 0 when no response was received. */
  readonly status: number;
  /** Request id (see {@link BrokerApiErrorInit.requestId}). */
  readonly requestId: string | null;
  /** The envelope's `data` hint, or null. */
  readonly data: Readonly<Record<string, unknown>> | null;
  /** The broker's own message, without the endpoint, status and request id around it. */
  readonly brokerMessage: string;

  /**
   * @param family - error family
   * @param init - status, code, message, request id, data
   */
  constructor(family: ErrorFamily, init: BrokerApiErrorInit) {
    const id = init.requestId === null ? '' : ` (request ${init.requestId})`;
    const status = init.status === 0 ? '' : ` HTTP ${init.status}`;
    super(init.code, `${init.endpoint}:${status} ${init.code}: ${init.message}${id}`, {
      cause: init.cause,
      retryable: init.retryable ?? false,
      details: { status: init.status, requestId: init.requestId, data: init.data ?? null },
    });
    this.family = family;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.requestId = init.requestId;
    this.data = init.data ?? null;
    this.brokerMessage = init.message;
  }
}

/** 401 / 403: missing, bad, expired or revoked token, bad client credentials, forbidden. */
export class AuthenticationError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.AUTHENTICATION, init);
  }
}

/** 400: the request was malformed or a value was not allowed (`data.field` names it). */
export class RequestValidationError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.VALIDATION, init);
  }
}

/** 404: unknown stock, order, account, rate or path. */
export class NotFoundError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.NOT_FOUND, init);
  }
}

/** 409: `request-in-progress` or the order is `already-*`. */
export class ConflictError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.CONFLICT, init);
  }
}

/** 422: a business rule refused the order (buying power, hours, price range, ...). */
export class BusinessRuleError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.BUSINESS_RULE, init);
  }
}

/** 429: the group's per-second limit was exceeded; `retryAfterMs` from `Retry-After`. */
export class RateLimitError extends BrokerApiError {
  /**
   * @param init - see {@link BrokerApiErrorInit}
   * @param retryAfterMs - the recommended wait, or null when the header was absent
   */
  constructor(
    init: BrokerApiErrorInit,
    readonly retryAfterMs: number | null,
  ) {
    super(ErrorFamily.RATE_LIMIT, { ...init, retryable: true });
  }
}

/** 5xx: `internal-error`, `maintenance` or a gateway failure. */
export class ServerError extends BrokerApiError {
  /** @param init - see {@link BrokerApiErrorInit} */
  constructor(init: BrokerApiErrorInit) {
    super(ErrorFamily.SERVER, init);
  }
}

/** Why no response was received. */
export const NetworkFailure = {
  /** No response within the per-request timeout. */
  TIMEOUT: 'timeout',
  /** The caller's `AbortSignal` fired. */
  ABORTED: 'aborted',
  /** Connection refused, reset or dropped. */
  CONNECTION: 'connection',
} as const;
/** One of {@link NetworkFailure}. */
export type NetworkFailure = (typeof NetworkFailure)[keyof typeof NetworkFailure];

/** No (complete) response was received: timeout, abort, refused or dropped connection. */
export class NetworkError extends BrokerApiError {
  /**
   * The request went out on a reused keep-alive connection that the server closed or reset before
   * any byte of an answer came back: typically a connection the server had just idled out. The
   * request most likely never reached the broker's application, but that cannot be proven (a
   * server that failed while processing it looks the same), so only a request that may be
   * repeated is sent again on a new connection.
   */
  readonly staleConnection: boolean;

  /**
   * @param endpoint - endpoint name
   * @param failure - what went wrong
   * @param message - detail (e.g. the socket error)
   * @param cause - the underlying error
   * @param options - `staleConnection`: see {@link NetworkError.staleConnection}
   */
  constructor(
    endpoint: string,
    readonly failure: NetworkFailure,
    message: string,
    cause?: unknown,
    options: { readonly staleConnection?: boolean } = {},
  ) {
    super(ErrorFamily.NETWORK, {
      endpoint,
      status: 0,
      code: `network-${failure}`,
      message,
      requestId: null,
      retryable: failure !== NetworkFailure.ABORTED,
      cause,
    });
    this.staleConnection = options.staleConnection ?? false;
  }
}
