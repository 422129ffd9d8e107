/**
 * The KR trading day the demos (`hoga start`, `pnpm start`) move the simulator to: the next one
 * after today; or, when today is outside the simulator's calendars (they hold 2026 and 2027 only),
 * the last trading day they hold. Before, a demo started on a date outside them stopped at once on
 * the calendar's `unsupported-date`.
 *
 * @module
 */
import { CALENDAR_RANGE } from '@hoga/broker-model';
import { BrokerApiError, type BrokerClient } from '@hoga/connector';

/** The day a demo runs on, and what to say when it is not the next one after today. */
export interface DemoDay {
  /** `YYYY-MM-DD`, a KR trading day. */
  readonly date: string;
  /** A line for the user when today is outside the simulator's calendars, else null. */
  readonly note: string | null;
}

/**
 * The KR trading day a demo runs on (see the module documentation).
 *
 * @param probe - a client of the demo's simulator
 */
export async function demoTradingDay(probe: BrokerClient): Promise<DemoDay> {
  try {
    return { date: (await probe.getKrMarketCalendar()).nextBusinessDay.date, note: null };
  } catch (error) {
    if (!(error instanceof BrokerApiError) || error.code !== 'unsupported-date') throw error;
  }
  const last = await probe.getKrMarketCalendar(CALENDAR_RANGE.to);
  const date = last.today.integrated !== null ? last.today.date : last.previousBusinessDay.date;
  return {
    date,
    note:
      `today is outside the simulator's market calendars (${CALENDAR_RANGE.from} to ${CALENDAR_RANGE.to}): ` +
      `the demo runs on ${date}, the last trading day they hold`,
  };
}
