import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSimCommands } from './sim.js';

// docs/simulator.md gives --seed a default of 1 (the simulator's own); before, `hoga sim --help`
// named no default for it.
describe('hoga sim --help', () => {
  it('names the default seed, 1', () => {
    const program = new Command('hoga');
    registerSimCommands(program);
    const help = program.commands.find((c) => c.name() === 'sim')?.helpInformation() ?? '';
    expect(help.replace(/\s+/g, ' ')).toContain(
      '--seed <n> seed of the markets (deterministic) (default: 1)',
    );
  });
});
