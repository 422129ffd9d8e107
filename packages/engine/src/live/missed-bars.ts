/**
 * What a paper or live run says when minute bars were missed: a run that could not poll for longer
 * than a catch-up reads back (the connector pages back up to 2,000 minute candles when it wakes), or
 * whose page back the broker refused, hands over the bars it read and says once per gap which
 * symbol's bars, ending between which times, no strategy got (before, a sleep of more than 200
 * minutes lost the bars before the last 200 without a word).
 *
 * @module
 */
import type { CandleGap } from '@hoga/connector';
import { KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';

const kst = (ms: number): string => DateTime.fromMillis(ms, { zone: KST_ZONE }).toFormat('yyyy-MM-dd HH:mm');

/**
 * The warning's line: `1m bars of 005930 ending after 2026-11-23 10:00 and before 2026-11-23
 * 11:42 KST were missed: … (reading them failed: …); no strategy got them, only the bars from
 * 2026-11-23 11:42 on. …`.
 *
 * @param symbol - the bars' symbol
 * @param interval - their interval
 * @param gap - the candles not read
 * @param strategies - the strategies that subscribed to them; null: the run's universe (all)
 */
export function missedBarsLine(
  symbol: string,
  interval: string,
  gap: CandleGap,
  strategies: readonly string[] | null,
): string {
  const who =
    strategies === null ? 'no strategy got them' : `onBar never got them (strategy ${strategies.join(', ')})`;
  return (
    `${interval} bars of ${symbol} ending after ${kst(gap.afterMs)} and before ${kst(gap.beforeMs)} KST were missed: ` +
    'the run could not poll for a while (the machine asleep, the process stopped, a broker outage) and reading ' +
    `them back stopped (${gap.cause}); ${who}, only the bars from ${kst(gap.beforeMs)} on. ` +
    'An indicator or sum over every bar is off until it has seen enough new ones'
  );
}
