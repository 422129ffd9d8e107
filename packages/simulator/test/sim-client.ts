/**
 * Test helpers: start a simulator on port 0 and talk to it over real HTTP with `fetch`.
 * @module
 */
import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '../src/index.js';

/** Monday 2026-11-23 10:00 KST: the KR regular session is open. */
export const KR_OPEN = '2026-11-23T10:00:00+09:00';
/** Monday 2026-11-23 09:30 New York (23:30 KST): the US regular session has just opened. */
export const US_OPEN = '2026-11-23T23:30:00+09:00';

/** Arbitrary JSON as the tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON payloads
export type Json = any;

/** One answer as the tests look at it. */
export interface SimResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON body (undefined when the body is not JSON). */
  readonly body: Json;
  readonly text: string;
}

/** Options of one request. */
export interface RequestOptions {
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Send the bearer token (default true). */
  readonly auth?: boolean;
  /** Account header value; null omits it (default the client's account). */
  readonly account?: string | null;
}

/** Starts a simulator with the test defaults: seed 7, frozen clock at {@link KR_OPEN}, control on, no rate limits. */
export function startTestSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  return startSimulator({
    port: 0,
    seed: 7,
    start: KR_OPEN,
    speed: 0,
    control: true,
    rateLimit: false,
    ...options,
  });
}

/** A tiny HTTP client of the simulator for tests (fetch, keep-alive by default). */
export class TestClient {
  private accessToken: string | null = null;

  constructor(
    readonly url: string,
    readonly account = '1',
    readonly clientId = 'sim-client',
    readonly clientSecret = 'sim-secret',
  ) {}

  /** Posts a form to the token endpoint. */
  async tokenRequest(
    form: Record<string, string>,
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<SimResponse> {
    const res = await fetch(`${this.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new URLSearchParams(form).toString(),
    });
    return read(res);
  }

  /** Issues a fresh token (revoking the previous one) and keeps it. */
  async login(): Promise<string> {
    const res = await this.tokenRequest({
      grant_type: 'client_credentials',
      client_id: this.clientId,
      client_secret: this.clientSecret,
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
    this.accessToken = res.body.access_token as string;
    return this.accessToken;
  }

  /** Uses this token from now on. */
  useToken(token: string): void {
    this.accessToken = token;
  }

  /** Sends one request; logs in first when there is no token yet. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<SimResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth !== false) {
      const token = this.accessToken ?? (await this.login());
      headers.authorization = `Bearer ${token}`;
    }
    const account = options.account === undefined ? this.account : options.account;
    if (account !== null) headers['x-service-account'] = account;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const query = options.query === undefined ? '' : `?${new URLSearchParams(options.query).toString()}`;
    const res = await fetch(`${this.url}${path}${query}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return read(res);
  }

  /** GET with a query. */
  get(path: string, query?: Record<string, string>, options: RequestOptions = {}): Promise<SimResponse> {
    return this.request('GET', path, { ...options, ...(query === undefined ? {} : { query }) });
  }

  /** POST with a JSON body. */
  post(path: string, body: unknown = {}, options: RequestOptions = {}): Promise<SimResponse> {
    return this.request('POST', path, { ...options, body });
  }

  /** A control-API call (no credentials); throws on a non-200 answer. */
  async control(method: string, path: string, body?: unknown): Promise<Json> {
    const res = await this.request(method, path, { auth: false, account: null, body });
    if (res.status !== 200) throw new Error(`control ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
}

async function read(res: Response): Promise<SimResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** The `{status code}` of an error answer, e.g. `422 order-hours-closed` (or `200` on success). */
export function outcome(res: SimResponse): string {
  if (res.status === 200) return '200';
  const code = res.body?.error?.code ?? res.body?.error;
  return `${res.status} ${String(code)}`;
}
