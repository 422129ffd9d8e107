import type { IncomingHttpHeaders } from 'node:http';
import type { RateLimitGroup } from '@hoga/core';
import type { OperationOptions } from './backends.js';

/** What a route needs before its handler runs. */
export const AuthMode = {
  /** No credentials (the token endpoint). */
  NONE: 'none',
  /** A valid bearer token. */
  TOKEN: 'token',
  /** A valid bearer token and the account header. */
  ACCOUNT: 'account',
} as const;
/** One of the {@link AuthMode} values. */
export type AuthMode = (typeof AuthMode)[keyof typeof AuthMode];

/** How a route's request body is read. */
export type BodyKind = 'none' | 'json' | 'form';

/** Everything a route handler sees of one request. */
export interface RequestContext {
  /** The `X-Request-Id` of the response (uuid). */
  readonly requestId: string;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Decoded path parameters, e.g. `orderId`. */
  readonly params: Readonly<Record<string, string>>;
  /** Parsed body: JSON value (`{}` when empty) for `json`, the form for `form`, undefined for `none`. */
  readonly body: unknown;
  /** The authenticated client, or null on unauthenticated routes. */
  readonly clientId: string | null;
  /** The account of the account header, or null on routes without one. */
  readonly accountSeq: number | null;
  /** Options the faults set for brokerage operations. */
  readonly operation: OperationOptions;
}

/** A route of the broker API. */
export interface ApiRoute {
  readonly method: 'GET' | 'POST';
  /** Path pattern with `{name}` parameters, e.g. `/api/v1/orders/{orderId}/modify`. */
  readonly pattern: string;
  readonly group: RateLimitGroup;
  readonly auth: AuthMode;
  readonly body: BodyKind;
  /** True for the token endpoint: the answer is sent as is, not wrapped in `{result}`. */
  readonly raw?: boolean;
  /**
   * True when the handler returns an array of objects that it caches and never
   * mutates (prices): the server may reuse each item's serialized text.
   */
  readonly immutableItems?: boolean;
  /** Returns the `result` payload (or the raw answer), or throws `SimApiError`. */
  handle(context: RequestContext): unknown;
}
