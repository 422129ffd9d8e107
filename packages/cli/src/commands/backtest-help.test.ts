import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerBacktestCommand } from './backtest.js';

describe('hoga backtest --help', () => {
  it('describes --db as where the candles and runs are, and leaves out the refused --csv', () => {
    const program = new Command('hoga');
    registerBacktestCommand(program);
    const help = program.commands.find((c) => c.name() === 'backtest')?.helpInformation() ?? '';
    expect(help).toMatch(/--db <file>\s+database of the candle cache and the stored runs/);
    expect(help).not.toContain('share the token');
    expect(help).not.toContain('--csv');
    expect(help).toContain('--json');
  });
});
