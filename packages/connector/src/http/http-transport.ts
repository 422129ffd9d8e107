/**
 * The one place that opens sockets: keep-alive HTTP(S) with a per-request timeout and an
 * `AbortSignal`. Transport failures become {@link NetworkError}s; status codes are not judged here.
 *
 * @module
 */
import http from 'node:http';
import https from 'node:https';
import { NetworkError, NetworkFailure } from '../errors.js';

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
   *   5 s server keep-alive, so a request is never written to a socket the server is closing)
   */
  constructor(maxSockets = 16, idleSocketMs = 4_000) {
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs });
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
      const req = lib.request(request.url, {
        method: request.method,
        headers: {
          ...request.headers,
          ...(request.body === undefined ? {} : { 'content-length': Buffer.byteLength(request.body) }),
        },
        agent: isHttps ? this.httpsAgent : this.httpAgent,
      });
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
