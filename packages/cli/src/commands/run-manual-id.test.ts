/**
 * Which runs may have a strategy of id `manual` (hoga order's), and what they are told: a live one
 * only with `--take-over-manual`, said at its start; a paper one as any id; the flag with nothing to
 * take over is said too, so that a mistyped id is not taken for a takeover.
 */
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../runtime/exit-codes.js';
import { manualIdWarning } from './run-manual-id.js';

describe('manualIdWarning', () => {
  it('refuses a live strategy of id manual without --take-over-manual, as bad usage naming the flag', () => {
    let thrown: unknown;
    try {
      manualIdWarning('live', ['sma', 'manual'], false);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).exitCode).toBe(ExitCode.USAGE);
    expect((thrown as CliError).message).toMatch(/^strategy id manual is hoga order's .*--take-over-manual/);
  });

  it('says at the start what a live strategy of id manual takes over when asked for', () => {
    expect(manualIdWarning('live', ['manual'], true)).toMatch(
      /^hoga run: strategy manual takes over hoga order's orders, fills and positions/,
    );
  });

  it('leaves paper runs and other ids alone', () => {
    expect(manualIdWarning('paper', ['manual'], false)).toBeNull();
    expect(manualIdWarning('live', ['Manual', 'manual2'], false)).toBeNull();
  });

  it('says when --take-over-manual has nothing to take over', () => {
    expect(manualIdWarning('live', ['manaul'], true)).toContain('no strategy of id manual runs live here');
    expect(manualIdWarning('paper', ['manual'], true)).toContain('nothing of hoga order');
  });
});
