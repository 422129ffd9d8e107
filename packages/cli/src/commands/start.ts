import type { Command } from 'commander';

/** `hoga start`: the main job. Until the simulator and engine land it explains what hoga is. */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('run the main job against the built-in simulator')
    .action(() => {
      console.log(
        'hoga: an event-driven trading engine for the Securities Brokerage Open API (KR and US stocks).',
      );
      console.log('Write a strategy once; run it as a backtest, on paper or live.');
      console.log('Next: `pnpm test` runs the test suite; `pnpm hoga --help` lists the commands.');
    });
}
