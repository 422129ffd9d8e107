import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerDataCommands } from './data.js';
import { registerOrderCommand } from './order.js';
import { registerRunCommand } from './run.js';

/** The help of `hoga <path…>`, as `--help` prints it. */
function helpOf(register: (program: Command) => void, path: readonly string[]): string {
  const program = new Command('hoga');
  register(program);
  let command: Command | undefined = program;
  for (const name of path) command = command?.commands.find((c) => c.name() === name);
  if (command === undefined) throw new Error(`no command ${path.join(' ')}`);
  return command.helpInformation();
}

// `hoga run`, `hoga order …` and `hoga data download` keep their orders, fills, runs or candles in
// the database of --db and create it when it is missing; before, their help said what the read-only
// broker commands do with it ("also share the token through this existing hoga database").
describe('--db of the commands that write the store', () => {
  const cases: [string, (program: Command) => void, string[]][] = [
    ['hoga run', registerRunCommand, ['run']],
    ['hoga order buy', registerOrderCommand, ['order', 'buy']],
    ['hoga order cancel', registerOrderCommand, ['order', 'cancel']],
    ['hoga data download', registerDataCommands, ['data', 'download']],
  ];
  for (const [name, register, path] of cases) {
    it(`${name} --help says --db is the store it writes, made when missing`, () => {
      const help = helpOf(register, path).replace(/\s+/g, ' ');
      expect(help).not.toContain('share the token through this existing');
      expect(help).toMatch(/--db <file> database .*made when missing/);
      // data download: then the embedded simulator's file when no broker is configured, as a backtest's
      expect(help).toMatch(
        name === 'hoga data download'
          ? /\(default \$HOGA_DB, else the profile's db, else \.\/data\/hoga\.sqlite; \.\/data\/hoga-sim\.sqlite when no broker is configured\)/
          : /\(default \$HOGA_DB, else the profile's db, else \.\/data\/hoga\.sqlite\)/,
      );
    });
  }
});
