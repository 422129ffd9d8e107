import type { Command } from 'commander';
import { listenForInterrupts } from '../runtime/interrupts.js';
import { decimalFlag } from './number-flags.js';

/**
 * `hoga start` (`pnpm start`): the reference strategy trading live against the built-in simulator
 * for about a minute (orders, fills, PnL). `--connector` runs the older connector-only demo
 * (account, holdings, live quotes and books, and one order filling).
 */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('demo: the SMA crossover trading live against the built-in simulator for about a minute')
    .option('--seconds <seconds>', 'how long to trade (real seconds)', parseSeconds, 60)
    .option('--connector', 'the connector-only demo instead (account, quotes, one order filling)', false)
    .option('--watch <seconds>', 'with --connector: how long to watch quotes', parseSeconds, 15)
    .action(async (flags: { watch: number; seconds: number; connector: boolean }) => {
      // Ctrl-C (or SIGTERM) stops either demo early as its end does: the engine demo's session
      // stopped, its summary printed, its temporary database removed; the connector demo's watching
      // cut short, no order placed; both close the simulator. A second one ends the process at once,
      // exit 130 (SIGTERM 143). The listener stays until the demo is over (runtime/interrupts.ts).
      const interrupts = listenForInterrupts({
        quitMessage: 'hoga start: interrupted again: stopping at once',
      });
      try {
        // each demo (and the simulator it starts) is loaded when it runs, not at every command's start
        if (flags.connector) {
          const { runStartDemo } = await import('./broker/start-demo.js');
          await runStartDemo({ watchMs: flags.watch * 1000, signal: interrupts.signal });
          return;
        }
        const { runEngineDemo } = await import('./broker/start-demo-engine.js');
        await runEngineDemo({ durationMs: flags.seconds * 1000, signal: interrupts.signal });
      } catch (error) {
        const { reportError } = await import('./broker/connection.js');
        reportError(error);
      } finally {
        interrupts.release();
      }
    });
}

/** Parses `--seconds` and `--watch`: seconds from 1 to 3600. */
const parseSeconds = decimalFlag(1, 3600, { what: 'seconds' });
