/**
 * Child process of the prices benchmark: serves either the simulator (rate
 * limits off) or a static-JSON `node:http` server and prints `port <n>`. Each
 * `cpu` line on stdin is answered with `cpu <microseconds>`: the process's
 * CPU time so far (user + system), so that the parent can compute the
 * server's CPU cost per request whatever else the machine is doing.
 *
 * Usage: `node --import tsx bench/bench-server.ts sim` or `... static <body-file>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { startSimulator } from '../src/index.js';

const [mode, bodyFile] = process.argv.slice(2);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'cpu') return;
  const usage = process.cpuUsage();
  console.log(`cpu ${usage.user + usage.system}`);
});

if (mode === 'sim') {
  const sim = await startSimulator({
    seed: 7,
    start: '2026-11-23T10:00:00+09:00',
    speed: 1,
    rateLimit: false,
  });
  console.log(`port ${sim.port}`);
  process.once('SIGTERM', () => {
    void sim.close().then(() => process.exit(0));
  });
} else if (mode === 'static' && bodyFile !== undefined) {
  const body = readFileSync(bodyFile);
  const server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as AddressInfo).port}`));
  process.once('SIGTERM', () => process.exit(0));
} else {
  console.error('usage: bench-server.ts sim | static <body-file>');
  process.exit(2);
}
