/**
 * Benchmark: `GET /api/v1/prices` with 200 symbols (rate limits off) against a
 * static-JSON `node:http` server serving a body of the same size, measured in
 * the same run. Each server runs in its own process (two cores: one for the
 * server, one for this load generator); the client keeps 8 keep-alive
 * connections busy with a lean raw-socket loop.
 *
 * Printed per server: requests/s, and the server's CPU time per request
 * (from `process.cpuUsage()` of the server process over the measured window),
 * which stays meaningful when other work shares the machine; then the ratios
 * of the simulator to the baseline. `BENCH_CPU_PROF=<dir>` writes a CPU
 * profile of each server process into `<dir>`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONNECTIONS = 8;
const WARMUP_MS = 1_500;
const MEASURE_MS = 6_000;
const TARGET_RPS = 5_000;
const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
const KR = ['005930', '000660', '035420', '069500', '035720', '247540', '900110'];
const US = ['AAPL', 'NVDA', 'TSLA', 'MSFT', 'KO', 'SOXL', 'ZOM'];

/** A server child process and a way to read its CPU time. */
interface BenchServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  cpuMicros(): Promise<number>;
}

function startServer(args: readonly string[]): Promise<BenchServer> {
  const profile = process.env.BENCH_CPU_PROF;
  const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', SERVER, ...args], { stdio: 'pipe' });
  child.stderr.pipe(process.stderr);
  let out = '';
  const waiting: ((micros: number) => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const cpu = /^cpu (\d+)$/.exec(line);
      if (cpu?.[1] !== undefined) waiting.shift()?.(Number(cpu[1]));
      const port = /^port (\d+)$/.exec(line);
      if (port?.[1] !== undefined) ready(Number(port[1]));
    }
  });
  let ready: (port: number) => void = () => {};
  return new Promise((resolve, reject) => {
    ready = (port) =>
      resolve({
        child,
        port,
        cpuMicros: () =>
          new Promise((done) => {
            waiting.push(done);
            child.stdin.write('cpu\n');
          }),
      });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

interface Target {
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly method?: string;
  readonly body?: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

function requestBytes(target: Target): Buffer {
  const head = Object.entries(target.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const body = target.body ?? '';
  const length = body === '' ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`;
  return Buffer.from(
    `${target.method ?? 'GET'} ${target.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}${length}\r\n${body}`,
  );
}

/**
 * One keep-alive connection sending the next request as soon as the previous
 * answer is complete; calls `onAnswer` with each answer's body and resolves
 * with the number of answers once `until` has passed (or after one answer
 * when `until` is 0).
 */
function connectionLoop(target: Target, until: number, onAnswer: (body: Buffer) => void): Promise<number> {
  const bytes = requestBytes(target);
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, '127.0.0.1');
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let done = 0;
    socket.on('connect', () => socket.write(bytes));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf(HEADER_END);
        if (headerEnd < 0) return;
        const header = buffer.subarray(0, headerEnd).toString('latin1');
        const length = Number(CONTENT_LENGTH.exec(header)?.[1] ?? Number.NaN);
        if (!header.startsWith('HTTP/1.1 200') || !Number.isFinite(length)) {
          socket.destroy();
          reject(new Error(`unexpected answer: ${header.slice(0, 200)}`));
          return;
        }
        const total = headerEnd + HEADER_END.length + length;
        if (buffer.length < total) return;
        onAnswer(buffer.subarray(headerEnd + HEADER_END.length, total));
        buffer = buffer.subarray(total);
        done++;
        if (performance.now() >= until) {
          socket.end();
          resolve(done);
          return;
        }
        socket.write(bytes);
      }
    });
  });
}

/** Sends one request and returns its body (throws unless 200). */
async function once(target: Target): Promise<Buffer> {
  let body = Buffer.alloc(0);
  await connectionLoop(target, 0, (b) => {
    body = Buffer.from(b);
  });
  return body;
}

/** Runs CONNECTIONS connections for `ms`; returns completed requests (all must be 200). */
async function load(target: Target, ms: number): Promise<number> {
  const until = performance.now() + ms;
  const counts = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => connectionLoop(target, until, () => {})),
  );
  return counts.reduce((a, b) => a + b, 0);
}

interface Figures {
  readonly rps: number;
  /** Server CPU microseconds per request. */
  readonly cpuPerRequest: number;
}

async function measure(server: BenchServer, target: Target): Promise<Figures> {
  await load(target, WARMUP_MS);
  const cpuBefore = await server.cpuMicros();
  const started = performance.now();
  const count = await load(target, MEASURE_MS);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await server.cpuMicros();
  return { rps: count / seconds, cpuPerRequest: (cpuAfter - cpuBefore) / count };
}

function line(name: string, f: Figures): string {
  const capacity = 1e6 / f.cpuPerRequest;
  return `  ${name.padEnd(12)} ${f.rps.toFixed(0).padStart(7)} requests/s   ${f.cpuPerRequest.toFixed(0).padStart(5)} µs server CPU per request (≈ ${capacity.toFixed(0)} requests/s per core)`;
}

const symbols = Array.from({ length: 200 }, (_, i) => {
  const list = i % 2 === 0 ? KR : US;
  return list[Math.floor(i / 2) % list.length] as string;
}).join(',');
const dir = mkdtempSync(join(tmpdir(), 'hoga-bench-'));
const servers: BenchServer[] = [];
try {
  const sim = await startServer(['sim']);
  servers.push(sim);
  const tokenBody = await once({
    port: sim.port,
    path: '/oauth2/token',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=sim-client&client_secret=sim-secret',
  });
  const token = (JSON.parse(tokenBody.toString()) as { access_token: string }).access_token;
  const simTarget: Target = {
    port: sim.port,
    path: `/api/v1/prices?symbols=${encodeURIComponent(symbols)}`,
    headers: { authorization: `Bearer ${token}` },
  };
  const sample = await once(simTarget);
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, sample);
  const simFigures = await measure(sim, simTarget);
  sim.child.kill('SIGTERM');

  const stat = await startServer(['static', bodyFile]);
  servers.push(stat);
  const staticFigures = await measure(stat, { ...simTarget, port: stat.port });
  stat.child.kill('SIGTERM');

  console.log(
    `GET /api/v1/prices, 200 symbols, body ${sample.length} bytes, ${CONNECTIONS} keep-alive connections, ${MEASURE_MS / 1000} s`,
  );
  console.log(line('simulator', simFigures));
  console.log(line('static JSON', staticFigures));
  console.log(
    `  ratio        ${(simFigures.rps / staticFigures.rps).toFixed(2)} of the baseline's requests/s, ${(simFigures.cpuPerRequest / staticFigures.cpuPerRequest).toFixed(2)}x its CPU per request`,
  );
  console.log(
    `  target       ${TARGET_RPS} requests/s: ${simFigures.rps >= TARGET_RPS ? 'met' : 'not met'} in this run (${(simFigures.rps / TARGET_RPS).toFixed(2)}x); one core's capacity ${(1e6 / simFigures.cpuPerRequest / TARGET_RPS).toFixed(2)}x`,
  );
} finally {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
