import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import { backoffBaseOf } from './connection.js';

describe('HOGA_BACKOFF_BASE_MS', () => {
  it("is the retry back-off's first step when set, the connector's own (1 s) when unset or empty", () => {
    expect(backoffBaseOf({})).toBeUndefined();
    expect(backoffBaseOf({ HOGA_BACKOFF_BASE_MS: '' })).toBeUndefined();
    expect(backoffBaseOf({ HOGA_BACKOFF_BASE_MS: '20' })).toBe(20);
    expect(backoffBaseOf({ HOGA_BACKOFF_BASE_MS: '9999999' })).toBe(9_999_999);
  });

  it.each(['0', 'abc', '1.5', '-5', '10000000', ' 20'])(
    'refuses %j with exit 2, naming the variable',
    (raw) => {
      let error: unknown;
      try {
        backoffBaseOf({ HOGA_BACKOFF_BASE_MS: raw });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(ExitCode.USAGE);
      expect((error as CliError).message).toBe(
        `HOGA_BACKOFF_BASE_MS is ${JSON.stringify(raw)}: expected a whole number of milliseconds from 1 to 9999999 (or leave it unset for 1000)`,
      );
    },
  );
});
