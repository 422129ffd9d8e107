import { CALENDAR_RANGE } from '@hoga/broker-model';
import { formatKst, KST_ZONE } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { type Command, InvalidArgumentError } from 'commander';
import { listenForInterrupts } from '../runtime/interrupts.js';
import { decimalFlag } from './number-flags.js';
import { CalendarFileError, calendarFileProblem, readCalendarFile } from './sim-calendar-file.js';

/** Flags of `hoga sim` as commander parses them. */
interface SimFlags {
  readonly host: string;
  readonly port: number;
  readonly seed?: number;
  readonly start?: string;
  readonly speed: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenTtl: number;
  readonly state?: string;
  readonly rateLimit: boolean;
  readonly control: boolean;
  readonly calendar?: string;
}

function integer(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^-?\d+$/.test(value))
      throw new InvalidArgumentError(`${name}: expected an integer, found "${value}"`);
    const parsed = Number(value);
    if (parsed < min || parsed > max) {
      throw new InvalidArgumentError(`${name}: expected ${min}..${max}, found ${value}`);
    }
    return parsed;
  };
}

const speed = decimalFlag(0, Number.POSITIVE_INFINITY, {
  what: 'a number of simulated seconds per real second,',
});

/**
 * What the simulator does on a date (`YYYY-MM-DD`) its holiday lists do not cover, or null inside
 * them: its calendar endpoints refuse the date, no holiday closes and every trading day has the
 * usual hours.
 */
export function outsideCalendars(date: string): string | null {
  if (date >= CALENDAR_RANGE.from && date <= CALENDAR_RANGE.to) return null;
  return (
    `hoga sim: its market calendars cover ${CALENDAR_RANGE.from} to ${CALENDAR_RANGE.to}; on ${date} ` +
    'the calendar endpoints answer 400 unsupported-date (an engine then denies orders ' +
    'risk-market-data-missing), only weekends are closed and every weekday has the usual hours'
  );
}

/**
 * Registers `hoga sim`: starts the broker simulator, prints exactly one line
 * `listening on <url>` once it accepts requests, and stops cleanly on SIGINT or SIGTERM (a second
 * one quits at once); one that comes while it starts stops it before that line, exit 130 (143).
 */
export function registerSimCommands(program: Command): void {
  program
    .command('sim')
    .description('run the broker simulator (a real HTTP server that behaves like the broker)')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free port)', integer('--port', 0, 65535), 18080)
    .option(
      '--seed <n>',
      'seed of the markets (deterministic)',
      integer('--seed', -(2 ** 31), 2 ** 31 - 1),
      1,
    )
    .option(
      '--start <iso>',
      'simulated start date-time with offset, or now (default: the clock saved in --state, else now)',
    )
    .option('--speed <x>', 'simulated seconds per real second', speed, 1)
    .option('--client-id <id>', 'accepted client_id', 'sim-client')
    .option('--client-secret <secret>', 'accepted client_secret', 'sim-secret')
    .option(
      '--token-ttl <seconds>',
      'token lifetime in seconds',
      integer('--token-ttl', 1, 2 ** 31 - 1),
      86400,
    )
    .option('--state <file>', 'file in which accounts, orders and the simulated clock survive a restart')
    .option('--no-rate-limit', 'do not enforce the rate limits')
    .option('--control', 'serve the control API under /_sim/', false)
    .option(
      '--calendar <file>',
      'JSON file of holidays and special sessions to declare ({holidays, specialSessions}, as the start option calendar)',
    )
    .action(async (flags: SimFlags) => {
      // Ctrl-C or SIGTERM closes the server (the state saved with --state), exit 0; a second one
      // quits at once, exit 130 (SIGTERM 143). The listener is in place before the simulator is
      // imported and started (before, a signal meanwhile, bin/hoga.js's start-up handler released,
      // found none and killed the process by the signal), stays until the process ends, and so is
      // there before the line a supervisor waits for.
      let sim: SimulatorHandle | undefined;
      const interrupts = listenForInterrupts({
        quitMessage: 'hoga sim: interrupted again: stopping at once',
        onFirst: () => {
          if (sim !== undefined) closeAndExit(sim, 0);
        },
      });
      const started = await start(flags);
      // one turn of the event loop: a signal that came while the code loaded (the main thread
      // waiting without running JavaScript) is handled now, before the line, not after it
      await new Promise<void>((done) => setImmediate(done));
      if (interrupts.signal.aborted) {
        // interrupted while it started: closed before it listens for anyone (state saved)
        process.stderr.write('hoga sim: interrupted during start-up: stopped before it listened\n');
        closeAndExit(started, interrupts.exitCode);
        return;
      }
      sim = started;
      console.log(`listening on ${sim.url}`);
      if (sim.resumedAt !== null) {
        process.stderr.write(
          `hoga sim: resuming the simulated clock of ${flags.state} at ${formatKst(sim.resumedAt)} ` +
            '(--start now for the real time)\n',
        );
      }
      const outside = outsideCalendars(sim.now().setZone(KST_ZONE).toISODate() ?? '');
      if (outside !== null) process.stderr.write(`${outside}\n`);
      if (flags.state === undefined) {
        process.stderr.write(
          'hoga sim: without --state, accounts and orders start afresh at every start ' +
            '(an engine ends the orders it placed before as not-found-at-broker)\n',
        );
      }
    });
}

/** Closes the simulator (its state saved with --state), then exits with `code` (1 if closing failed). */
function closeAndExit(sim: SimulatorHandle, code: number): void {
  sim.close().then(
    () => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`hoga sim: error while stopping: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

async function start(flags: SimFlags): Promise<SimulatorHandle> {
  const { SimulatorError, startSimulator } = await import('@hoga/simulator');
  try {
    const calendar = flags.calendar === undefined ? undefined : readCalendarFile(flags.calendar);
    return await startSimulator({
      host: flags.host,
      port: flags.port,
      speed: flags.speed,
      clientId: flags.clientId,
      clientSecret: flags.clientSecret,
      tokenTtlSeconds: flags.tokenTtl,
      rateLimit: flags.rateLimit,
      control: flags.control,
      ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      ...(flags.start === undefined ? {} : { start: flags.start }),
      ...(flags.state === undefined ? {} : { statePath: flags.state }),
      ...(calendar === undefined ? {} : { calendar }),
    });
  } catch (error) {
    if (error instanceof CalendarFileError) {
      process.stderr.write(`hoga sim: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof SimulatorError) {
      const problem = flags.calendar === undefined ? null : calendarFileProblem(flags.calendar, error);
      process.stderr.write(`hoga sim: ${problem ?? error.message}\n`);
      process.exit(2);
    }
    const code = (error as { code?: unknown }).code;
    if (['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes(String(code))) {
      process.stderr.write(`hoga sim: cannot listen on ${flags.host}:${flags.port}: ${String(code)}\n`);
      process.exit(1);
    }
    throw error;
  }
}
