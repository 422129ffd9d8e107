/**
 * An HTTP proxy on 127.0.0.1 in front of the simulator that plays a broker misbehaving in ways the
 * simulator's fault knobs do not: an answer replaced after the request was handled (a 5xx from a
 * gateway once the order is committed), a history page rewritten (rows repeated across pages, an
 * older copy of a row). Every request goes on to the simulator over real HTTP; a rule sees it and
 * the simulator's answer, and decides what the client gets. Test code only.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy received it. */
export interface ProxiedRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: string;
}

/** An answer, the simulator's or one a rule made. */
export interface ProxiedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * A rule: given the request and the way to pass it on (once), the answer the client gets, or
 * undefined to leave the request to the next rule (in the end, to the simulator as it is).
 */
export type ProxyRule = (
  request: ProxiedRequest,
  forward: () => Promise<ProxiedAnswer>,
) => Promise<ProxiedAnswer> | undefined;

/** A running proxy. */
export interface HostileBroker {
  /** `http://127.0.0.1:<port>`: the base URL to give the client. */
  readonly url: string;
  /** Adds a rule (tried in the order added); answers a function that removes it. */
  use(rule: ProxyRule): () => void;
  close(): Promise<void>;
}

/** A 500 `internal-error` in the broker's envelope, as a gateway in front of it answers. */
export function internalError(): ProxiedAnswer {
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: { requestId: 'proxy', code: 'internal-error', message: 'temporary server failure' },
    }),
  };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Starts the proxy on a free port of 127.0.0.1.
 *
 * @param target - the simulator's base URL
 */
export async function startHostileBroker(target: string): Promise<HostileBroker> {
  const upstream = new URL(target);
  const rules: ProxyRule[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://proxy');
      const seen: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body,
      };
      const forward = (): Promise<ProxiedAnswer> =>
        new Promise((resolve, reject) => {
          const out = httpRequest(
            {
              host: upstream.hostname,
              port: upstream.port,
              method: seen.method,
              path: req.url,
              headers: { ...plainHeaders(req.headers), 'content-length': Buffer.byteLength(body) },
            },
            (answer) => {
              const parts: Buffer[] = [];
              answer.on('data', (c: Buffer) => parts.push(c));
              answer.on('end', () =>
                resolve({
                  status: answer.statusCode ?? 502,
                  headers: plainHeaders(answer.headers),
                  body: Buffer.concat(parts).toString('utf8'),
                }),
              );
              answer.on('error', reject);
            },
          );
          out.on('error', reject);
          out.end(body);
        });
      let answer: Promise<ProxiedAnswer> | undefined;
      for (const rule of rules) {
        answer = rule(seen, forward);
        if (answer !== undefined) break;
      }
      (answer ?? forward()).then(
        (a) => {
          res.writeHead(a.status, { ...a.headers, 'content-length': Buffer.byteLength(a.body) });
          res.end(a.body);
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    use(rule) {
      rules.push(rule);
      return () => {
        const at = rules.indexOf(rule);
        if (at >= 0) rules.splice(at, 1);
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
