import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, formatKst, isPeakWindow } from '@hoga/core';
import { SimApiError } from '../api-error.js';
import { OAuthError, type TokenAuthority } from './auth.js';
import type { BrokerageEndpoints, OperationOptions } from './backends.js';
import type { ServerCounters } from './counters.js';
import { type ActiveFault, type FaultInjector, FaultKind } from './faults.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { type ApiRoute, AuthMode, type RequestContext } from './request-context.js';
import { addRateLimitHeaders, bearerChallenge, resultBody, sendApiError, sendJsonText } from './respond.js';
import { Router } from './router.js';
import { unknownPathError } from './routes.js';

/** Handles `/_sim/*` requests; returns the JSON answer or throws `SimApiError`. */
export interface ControlDispatcher {
  dispatch(method: string, path: string, query: URLSearchParams, body: unknown): Promise<unknown>;
}

/** Everything the HTTP layer is wired to. */
export interface SimHttpServerOptions {
  readonly routes: readonly ApiRoute[];
  readonly tokens: TokenAuthority;
  readonly limiter: RateLimiter;
  readonly faults: FaultInjector;
  readonly brokerage: BrokerageEndpoints;
  /** The simulated clock (peak window, brokerage advance). */
  readonly clock: Clock;
  readonly counters: ServerCounters;
  /** Name of the account header; default `X-Service-Account`. */
  readonly accountHeader?: string;
  /** Serves `/_sim/*` when set. */
  readonly control?: ControlDispatcher;
  /** Called with unexpected errors (answered 500 `internal-error`); default writes to stderr. */
  readonly onInternalError?: (error: unknown, method: string, path: string) => void;
}

const MAX_BODY_BYTES = 1 << 20;
/** Query strings at least this long are parsed once and reused. */
const LONG_QUERY = 256;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES)
      throw new SimApiError(400, 'invalid-request', 'The request body is too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SimApiError(400, 'invalid-request', 'The request body is not valid JSON.', { field: 'body' });
  }
}

function parseForm(req: IncomingMessage, text: string): URLSearchParams | null {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
  return new URLSearchParams(text);
}

function has(faults: readonly ActiveFault[], kind: FaultKind): ActiveFault | undefined {
  return faults.find((f) => f.kind === kind);
}

/**
 * The simulator's HTTP server: routing, envelopes, `X-Request-Id`, bearer
 * auth, the account header, rate limits, faults, then the route's handler.
 */
export class SimHttpServer {
  private readonly server: Server;
  private readonly router: Router<ApiRoute>;
  private readonly accountHeader: string;
  private readonly longQueries = new Map<string, URLSearchParams>();
  private readonly onInternalError: (error: unknown, method: string, path: string) => void;

  constructor(private readonly options: SimHttpServerOptions) {
    this.router = new Router(options.routes);
    this.accountHeader = (options.accountHeader ?? 'X-Service-Account').toLowerCase();
    this.onInternalError =
      options.onInternalError ??
      ((error, method, path) => {
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
        process.stderr.write(`simulator: internal error on ${method} ${path}: ${text}\n`);
      });
    this.server = createServer({ keepAlive: true }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.onInternalError(error, req.method ?? '', req.url ?? '');
        if (!res.headersSent) res.destroy();
      });
    });
    this.server.keepAliveTimeout = 5_000;
  }

  /** Starts listening; resolves with the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting, closes every connection (idle keep-alive ones too) and resolves when closed. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /**
   * Parses a query string; long ones (a 200-symbol list) are parsed once and
   * the parsed object reused, since handlers only read their query.
   */
  private parseQuery(search: string): URLSearchParams {
    if (search.length < LONG_QUERY) return new URLSearchParams(search);
    let parsed = this.longQueries.get(search);
    if (parsed === undefined) {
      if (this.longQueries.size >= 64) this.longQueries.clear();
      parsed = new URLSearchParams(search);
      this.longQueries.set(search, parsed);
    }
    return parsed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? new URLSearchParams() : this.parseQuery(url.slice(q + 1));
    const headers: OutgoingHttpHeaders = { 'x-request-id': requestId };

    if (this.options.control !== undefined && path.startsWith('/_sim/')) {
      await this.handleControl(req, res, method, path, query, requestId, headers);
      return;
    }
    if (method === 'GET' && path === '/_sim/clock') {
      // Read-only, served with or without the control API: an engine against this simulator
      // (`hoga run`) reads the simulated time and speed here and follows them.
      sendJsonText(res, 200, JSON.stringify(this.simClock()), headers);
      return;
    }
    const { counters } = this.options;
    counters.requestsTotal++;
    const match = this.router.match(method, path);
    if (match === undefined) {
      const error = unknownPathError(method, path);
      sendApiError(res, error.status, error, requestId, headers);
      return;
    }
    const { route, params } = match;
    counters.countGroup(route.group);
    try {
      await this.handleRoute(req, res, route, params, { requestId, method, path, query, headers });
    } catch (error) {
      this.sendError(res, route, error, requestId, headers, method, path);
    }
  }

  private async handleRoute(
    req: IncomingMessage,
    res: ServerResponse,
    route: ApiRoute,
    params: Record<string, string>,
    r: {
      requestId: string;
      method: string;
      path: string;
      query: URLSearchParams;
      headers: OutgoingHttpHeaders;
    },
  ): Promise<void> {
    const { tokens, limiter, faults, clock, brokerage, counters } = this.options;
    const rawBody = route.body === 'none' ? '' : await readBody(req);
    const form = route.body === 'form' ? parseForm(req, rawBody) : null;

    let clientId: string | null = null;
    let authError: unknown = null;
    if (route.auth !== AuthMode.NONE) {
      try {
        clientId = tokens.authenticate(req.headers.authorization);
      } catch (error) {
        authError = error;
      }
    } else if (form !== null) {
      clientId = form.get('client_id');
    }
    const peak =
      limiter.limitOf(route.group, true) !== limiter.limitOf(route.group, false) && isPeakWindow(clock.now());
    const key = clientId ?? `addr:${req.socket.remoteAddress ?? 'unknown'}`;
    const decision: RateLimitDecision = limiter.take(key, route.group, peak);
    addRateLimitHeaders(r.headers, decision);
    if (!decision.allowed) throw this.rateLimited();
    if (authError !== null) throw authError;

    const fired = faults.fire(r.method, r.path);
    counters.faultsFired += fired.length;
    const burst = has(fired, FaultKind.RATE_LIMIT_BURST) ?? has(fired, FaultKind.EDGE_RATE_LIMIT_BURST);
    if (burst !== undefined) {
      addRateLimitHeaders(r.headers, limiter.refuse(route.group, peak));
      throw this.rateLimited(
        burst.kind === FaultKind.EDGE_RATE_LIMIT_BURST ? 'edge-rate-limit-exceeded' : undefined,
      );
    }
    const delay = has(fired, FaultKind.DELAY);
    if (delay !== undefined) await sleep(delay.delayMs ?? 1_000);
    if (has(fired, FaultKind.INTERNAL_ERROR)) {
      throw new SimApiError(500, 'internal-error', 'A temporary server failure occurred (injected).');
    }
    if (has(fired, FaultKind.MAINTENANCE)) {
      throw new SimApiError(500, 'maintenance', 'The system is under maintenance (injected).');
    }

    let accountSeq: number | null = null;
    if (route.auth === AuthMode.ACCOUNT || route.group === 'ACCOUNT') brokerage.advanceTo(clock.now());
    if (route.auth === AuthMode.ACCOUNT) {
      const header = req.headers[this.accountHeader];
      accountSeq = brokerage.requireAccount(Array.isArray(header) ? header[0] : header);
    }
    const hide = has(fired, FaultKind.HIDE_NEW_ORDERS);
    if (hide !== undefined) brokerage.hideNewOrdersFor(hide.durationMs ?? 60_000);
    const operation: OperationOptions = {};
    const slow = has(fired, FaultKind.SLOW_ORDER);
    if (slow !== undefined) operation.processingDelayMs = slow.delayMs ?? 2_000;

    const context: RequestContext = {
      requestId: r.requestId,
      method: r.method,
      path: r.path,
      query: r.query,
      headers: req.headers,
      params,
      body: route.body === 'json' ? parseJsonBody(rawBody) : route.body === 'form' ? form : undefined,
      clientId,
      accountSeq,
      operation,
    };
    const result = await route.handle(context);
    const lateAnswer = has(fired, FaultKind.DELAY_AFTER_COMMIT);
    if (lateAnswer !== undefined) await sleep(lateAnswer.delayMs ?? 1_000);
    if (has(fired, FaultKind.DROP_AFTER_COMMIT)) {
      res.destroy();
      return;
    }
    if (route.raw === true) r.headers['cache-control'] = 'no-store';
    const body =
      route.raw === true
        ? Buffer.from(JSON.stringify(result), 'utf8')
        : resultBody(result, route.immutableItems === true);
    if (has(fired, FaultKind.MALFORMED_BODY)) {
      sendJsonText(res, 200, body.subarray(0, Math.max(1, Math.floor(body.length / 2))), r.headers);
      return;
    }
    sendJsonText(res, 200, body, r.headers);
  }

  private rateLimited(code = 'rate-limit-exceeded'): SimApiError {
    this.options.counters.rateLimited++;
    return new SimApiError(429, code, 'Too many requests: the per-second rate limit was exceeded.');
  }

  private sendError(
    res: ServerResponse,
    route: ApiRoute,
    error: unknown,
    requestId: string,
    headers: OutgoingHttpHeaders,
    method: string,
    path: string,
  ): void {
    if (res.destroyed) return;
    if (error instanceof OAuthError) {
      if (error.status === 401) headers['www-authenticate'] = 'Basic realm="openapi"';
      const body = JSON.stringify({ error: error.error, error_description: error.description });
      sendJsonText(res, error.status, body, headers);
      return;
    }
    if (error instanceof SimApiError) {
      if (error.status === 401 && route.auth !== AuthMode.NONE) {
        headers['www-authenticate'] = bearerChallenge(error.code, error.message);
      }
      sendApiError(res, error.status, error, requestId, headers);
      return;
    }
    this.onInternalError(error, method, path);
    sendApiError(
      res,
      500,
      { code: 'internal-error', message: 'A temporary server failure occurred.' },
      requestId,
      headers,
    );
  }

  /** The simulated time (KST) and speed, as the control API's `GET /_sim/clock` answers them. */
  private simClock(): { now: string; speed: number } {
    const clock = this.options.clock as Clock & { getSpeed?: () => number };
    return { now: formatKst(clock.now()), speed: clock.getSpeed?.() ?? 1 };
  }

  private async handleControl(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: URLSearchParams,
    requestId: string,
    headers: OutgoingHttpHeaders,
  ): Promise<void> {
    try {
      const text = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
      const body = parseJsonBody(text);
      const result = await this.options.control?.dispatch(method, path, query, body);
      sendJsonText(res, 200, JSON.stringify(result ?? null), headers);
    } catch (error) {
      if (error instanceof SimApiError) {
        sendApiError(res, error.status, error, requestId, headers);
        return;
      }
      this.onInternalError(error, method, path);
      sendApiError(res, 500, { code: 'internal-error', message: String(error) }, requestId, headers);
    }
  }
}
