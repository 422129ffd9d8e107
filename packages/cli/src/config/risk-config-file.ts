/**
 * The risk configuration of `hoga order`, `hoga run` and `hoga backtest`: `--risk-config <file>`, else
 * `$HOGA_RISK_CONFIG`, else the defaults; a file that cannot be read or does not match
 * `riskConfigSchema` is a usage error (exit 2) naming the file and the field.
 *
 * @module
 */

import { configIssueLines, parseRiskConfig, type RiskConfig, unmatchedStrategyLimits } from '@hoga/engine';
import { ZodError } from 'zod';
import { usageError } from '../runtime/exit-codes.js';
import { readJsonText } from './json-file.js';

/** The risk configuration's file: the `--risk-config` flag, else `$HOGA_RISK_CONFIG`; none for the defaults. */
export function riskConfigFile(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return file ?? (env.HOGA_RISK_CONFIG || undefined);
}

/**
 * Reads the risk configuration.
 *
 * @param file - the `--risk-config` flag, if given
 * @param env - the environment (for `HOGA_RISK_CONFIG`)
 * @throws a usage error (exit 2) naming the file and what is wrong in it
 */
export function loadRiskConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): RiskConfig {
  const path = riskConfigFile(file, env);
  if (path === undefined) return parseRiskConfig({});
  // a file named by the environment is said to be, or a user who gave no flag cannot tell where it came from
  const named = file === undefined ? `${path} (from $HOGA_RISK_CONFIG)` : path;
  let raw: unknown;
  try {
    raw = JSON.parse(readJsonText(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw usageError(`cannot read the risk configuration ${named}: ${why}`);
  }
  try {
    return parseRiskConfig(raw);
  } catch (error) {
    // each field as a strategy's config names it: the field, the value found, what was expected
    if (error instanceof ZodError)
      throw usageError(`risk configuration ${named}:\n${configIssueLines(error, raw).join('\n')}`);
    throw error;
  }
}

/**
 * Says on stderr which `strategies` entries of the risk configuration name no strategy of the run
 * (`hoga run`, `hoga backtest`): their limits protect nothing, and the strategy a misspelt id meant
 * runs at the defaults. Nothing is said without such an entry.
 *
 * @param config - the parsed configuration
 * @param file - the `--risk-config` flag, if given
 * @param strategyIds - the run's strategy ids
 * @param write - where the line goes (default stderr)
 */
export function warnUnmatchedStrategyLimits(
  config: RiskConfig,
  file: string | undefined,
  strategyIds: readonly string[],
  write: (line: string) => void = (line) => process.stderr.write(line),
): void {
  const unmatched = unmatchedStrategyLimits(config, strategyIds);
  if (unmatched.length === 0) return;
  const path = riskConfigFile(file) ?? 'the risk configuration';
  const names = unmatched.map((id) => JSON.stringify(id)).join(', ');
  const which = unmatched.length === 1 ? 'which is no strategy' : 'which are no strategies';
  write(
    `hoga: risk configuration ${path}: "strategies" has limits for ${names}, ${which} of this run ` +
      `(its strategies: ${strategyIds.join(', ')}; ids are case-sensitive): they apply to none\n`,
  );
}
