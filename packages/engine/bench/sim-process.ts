/**
 * The simulator in a process of its own for benchmarks (so its memory is not the engine's): prints
 * its URL, stops on SIGTERM. Usage: `tsx bench/sim-process.ts <speed> [<generated symbols>]` (the
 * second argument lists that many generated KR stocks, `400001`, …, besides the fixed universe).
 */
import { startSimulator } from '@hoga/simulator';

const sim = await startSimulator({
  port: 0,
  seed: 7,
  start: '2026-11-23T10:00:00+09:00',
  speed: Number(process.argv[2] ?? 60),
  control: true,
  extraSymbols: Number(process.argv[3] ?? 0),
});
console.log(sim.url);
process.on('SIGTERM', () => {
  void sim.close().then(() => process.exit(0));
});
