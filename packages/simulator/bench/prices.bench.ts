/**
 * Benchmark: requests per second of `GET /api/v1/prices` with 200 symbols
 * (rate limits off), against a static-JSON `node:http` server serving a body
 * of the same size, measured in the same run. Each server runs in its own
 * process (the machine has two cores: one for the server, one for this load
 * generator); the client uses keep-alive connections and a few concurrent
 * request loops. Prints requests/s of both and their ratio.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONNECTIONS = 8;
const WARMUP_MS = 1_500;
const MEASURE_MS = 6_000;
const TARGET_RPS = 5_000;
const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
const UNIVERSE = ['005930', '000660', '035420', '069500', '035720', '247540', '900110'];
const UNIVERSE_US = ['AAPL', 'NVDA', 'TSLA', 'MSFT', 'KO', 'SOXL', 'ZOM'];

function startServer(args: readonly string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match?.[1] !== undefined) resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

interface Target {
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

function get(agent: Agent, target: Target): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, path: target.path, headers: target.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

/**
 * One keep-alive connection sending a request as soon as the previous answer
 * is complete (a lean raw-socket client, so that the load generator costs
 * less than the servers it measures). Resolves with the number of answers.
 */
function connectionLoop(target: Target, until: number): Promise<number> {
  const head = Object.entries(target.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const requestBytes = Buffer.from(`GET ${target.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, '127.0.0.1');
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let done = 0;
    socket.on('connect', () => socket.write(requestBytes));
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
        buffer = buffer.subarray(total);
        done++;
        if (performance.now() >= until) {
          socket.end();
          resolve(done);
          return;
        }
        socket.write(requestBytes);
      }
    });
  });
}

/** Runs CONNECTIONS connections for `ms`; returns completed requests (all must be 200). */
async function load(target: Target, ms: number): Promise<number> {
  const until = performance.now() + ms;
  const counts = await Promise.all(Array.from({ length: CONNECTIONS }, () => connectionLoop(target, until)));
  return counts.reduce((a, b) => a + b, 0);
}

async function measure(target: Target): Promise<number> {
  await load(target, WARMUP_MS);
  const started = performance.now();
  const count = await load(target, MEASURE_MS);
  return count / ((performance.now() - started) / 1000);
}

const symbols = Array.from({ length: 200 }, (_, i) => {
  const list = i % 2 === 0 ? UNIVERSE : UNIVERSE_US;
  return list[Math.floor(i / 2) % list.length] as string;
}).join(',');
const dir = mkdtempSync(join(tmpdir(), 'hoga-bench-'));
const children: ChildProcess[] = [];
try {
  const sim = await startServer(['sim']);
  children.push(sim.child);
  const agent = new Agent({ keepAlive: true });
  const tokenRes = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: sim.port,
        path: '/oauth2/token',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        agent,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end('grant_type=client_credentials&client_id=sim-client&client_secret=sim-secret');
  });
  const token = (JSON.parse(tokenRes) as { access_token: string }).access_token;
  const simTarget: Target = {
    port: sim.port,
    path: `/api/v1/prices?symbols=${encodeURIComponent(symbols)}`,
    headers: { authorization: `Bearer ${token}` },
  };
  const sample = await get(agent, simTarget);
  agent.destroy();
  if (sample.status !== 200) throw new Error(`prices answered ${sample.status}: ${sample.body.toString()}`);
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, sample.body);

  const simRps = await measure(simTarget);
  sim.child.kill('SIGTERM');

  const stat = await startServer(['static', bodyFile]);
  children.push(stat.child);
  const staticRps = await measure({ port: stat.port, path: simTarget.path, headers: simTarget.headers });
  stat.child.kill('SIGTERM');

  const ratio = simRps / staticRps;
  console.log(
    `GET /api/v1/prices, 200 symbols, body ${sample.body.length} bytes, ${CONNECTIONS} keep-alive connections`,
  );
  console.log(`  simulator     ${simRps.toFixed(0).padStart(7)} requests/s`);
  console.log(`  static JSON   ${staticRps.toFixed(0).padStart(7)} requests/s (baseline, same run)`);
  console.log(`  ratio         ${ratio.toFixed(2)} of the static server`);
  console.log(
    `  target        ${TARGET_RPS} requests/s: ${simRps >= TARGET_RPS ? 'met' : 'NOT met'} (${(simRps / TARGET_RPS).toFixed(2)}x)`,
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
