/**
 * The one place that opens sockets: keep-alive HTTP(S) with a per-request timeout and an
 * `AbortSignal`. Transport failures become {@link NetworkError}s; status codes are not judged here.
 *
 * Idle keep-alive sockets are retired before the server closes them: by the agent's idle timer,
 * and, when a socket is handed out, by the wall clock too (a blocked event loop cannot run the
 * timer, and a server closing the socket as the next request is written resets it). A request
 * that still meets a reused socket closed by the server, before any byte of an answer came back,
 * fails with {@link NetworkError.staleConnection} set, and the idle sockets of the pool, older
 * still, are closed with it.
 *
 * @module
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { NetworkError, NetworkFailure } from '../errors.js';

/** When an idle socket went back to the pool (`performance.now()`). */
const IDLE_SINCE = Symbol('hoga.idleSince');

type PooledSocket = Socket & { [IDLE_SINCE]?: number };

/** The parts of `http.Agent` the pool guard uses that its typings leave out. */
interface AgentInternals {
  keepSocketAlive(socket: Socket): boolean;
  addRequest(request: http.ClientRequest, options: unknown): void;
  readonly freeSockets: Record<string, PooledSocket[] | undefined>;
}

/** Socket errors of a connection the other side closed or reset. */
const CLOSED_BY_PEER: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Closes the pool's idle sockets that have been idle, by the wall clock, for their whole idle
 * limit (the agent's `timeout`, lowered by the server's `Keep-Alive: timeout=` hint).
 */
function retireStaleSockets(agent: AgentInternals): void {
  const now = performance.now();
  for (const sockets of Object.values(agent.freeSockets)) {
    if (sockets === undefined) continue;
    for (let i = sockets.length - 1; i >= 0; i--) {
      const socket = sockets[i]!;
      const since = socket[IDLE_SINCE];
      const limit = socket.timeout ?? 0;
      if (since !== undefined && limit > 0 && now - since >= limit) {
        sockets.splice(i, 1);
        socket.destroy();
      }
    }
  }
}

/** Closes every idle socket of the pool. */
function closeIdleSockets(agent: AgentInternals): void {
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of sockets?.splice(0) ?? []) socket.destroy();
  }
}

/** Makes `agent` stamp sockets going idle and retire stale ones before handing one out. */
function guardPool<A extends http.Agent>(agent: A): A {
  const internals = agent as unknown as AgentInternals;
  const keep = internals.keepSocketAlive.bind(agent);
  internals.keepSocketAlive = (socket: PooledSocket): boolean => {
    const kept = keep(socket);
    socket[IDLE_SINCE] = performance.now();
    return kept;
  };
  const add = internals.addRequest.bind(agent);
  internals.addRequest = (request, options): void => {
    retireStaleSockets(internals);
    add(request, options);
  };
  return agent;
}

/** One HTTP exchange to perform. */
export interface HttpRequest {
  /** Endpoint name, used in errors. */
  readonly endpoint: string;
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Whole-exchange timeout in ms (connect, send, receive the full body). */
  readonly timeoutMs: number;
  /** Aborts the exchange; the promise then rejects with a `network-aborted` {@link NetworkError}. */
  readonly signal?: AbortSignal | undefined;
}

/** An answer of any status. Header names are lower-case; repeated headers are joined with `, `. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** Keep-alive HTTP client over `node:http` / `node:https` agents. */
export class HttpTransport {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  /**
   * @param maxSockets - sockets per origin kept open (default 16)
   * @param idleSocketMs - an idle socket is closed after this long (default 4 s, below the common
   *   5 s server keep-alive, so a request is never written to a socket the server is closing;
   *   lowered by a server's `Keep-Alive: timeout=` hint)
   */
  constructor(maxSockets = 16, idleSocketMs = 4_000) {
    this.httpAgent = guardPool(new http.Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs }));
    this.httpsAgent = guardPool(new https.Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs }));
  }

  /**
   * Performs one exchange.
   *
   * @param request - what to send
   * @returns the answer, whatever its status
   * @throws {@link NetworkError} on timeout, abort or a connection failure
   */
  send(request: HttpRequest): Promise<HttpResponse> {
    const { endpoint, signal } = request;
    if (signal?.aborted) {
      return Promise.reject(new NetworkError(endpoint, NetworkFailure.ABORTED, 'aborted before sending'));
    }
    const isHttps = request.url.protocol === 'https:';
    const lib = isHttps ? https : http;
    return new Promise<HttpResponse>((resolve, reject) => {
      let failure: NetworkFailure = NetworkFailure.CONNECTION;
      let settled = false;
      const finish = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const agent = isHttps ? this.httpsAgent : this.httpAgent;
      const req = lib.request(request.url, {
        method: request.method,
        headers: {
          ...request.headers,
          ...(request.body === undefined ? {} : { 'content-length': Buffer.byteLength(request.body) }),
        },
        agent,
      });
      // Bytes the socket had read before this request: any more means the server answered something.
      let bytesReadBefore: number | null = null;
      req.on('socket', (socket) => {
        bytesReadBefore = socket.bytesRead;
      });
      /** A reused socket the server had closed (reset, or ended) before any byte of an answer. */
      const stale = (error: Error): boolean => {
        const code = (error as { code?: unknown }).code;
        if (!req.reusedSocket || failure !== NetworkFailure.CONNECTION) return false;
        if (typeof code !== 'string' || !CLOSED_BY_PEER.has(code)) return false;
        const read = req.socket?.bytesRead;
        return bytesReadBefore !== null && read !== undefined && read === bytesReadBefore;
      };
      const timer = setTimeout(() => {
        failure = NetworkFailure.TIMEOUT;
        req.destroy(new Error(`no complete response within ${request.timeoutMs} ms`));
      }, request.timeoutMs);
      const onAbort = (): void => {
        failure = NetworkFailure.ABORTED;
        req.destroy(new Error('aborted by the caller'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error: Error) => {
        if (stale(error)) {
          closeIdleSockets(agent as unknown as AgentInternals);
          const message = `${error.message}: the server closed the reused keep-alive connection before answering`;
          finish(() =>
            reject(new NetworkError(endpoint, failure, message, error, { staleConnection: true })),
          );
          return;
        }
        finish(() => reject(new NetworkError(endpoint, failure, error.message, error)));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: Error) => {
          finish(() => reject(new NetworkError(endpoint, failure, error.message, error)));
        });
        res.on('aborted', () => {
          finish(() => reject(new NetworkError(endpoint, failure, 'connection closed mid-response')));
        });
        res.on('end', () => {
          if (!res.complete) {
            finish(() => reject(new NetworkError(endpoint, failure, 'connection closed mid-response')));
            return;
          }
          const headers: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          const body = Buffer.concat(chunks).toString('utf8');
          finish(() => resolve({ status: res.statusCode ?? 0, headers, body }));
        });
      });
      req.end(request.body);
    });
  }

  /** Closes idle keep-alive sockets so the process can exit. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
