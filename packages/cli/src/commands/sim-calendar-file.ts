/**
 * `hoga sim --calendar <file.json>`: holidays and special sessions declared at the start, the file
 * holding the simulator's start option `calendar` as JSON (`{holidays?, specialSessions?}`, see
 * docs/simulator.md). The simulator checks the declaration; this module reads the file and words
 * its refusals for the command line, naming the file and the field.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { CalendarDeclaration } from '@hoga/simulator';

/** A `--calendar` file that could not be used: the message says which and why. */
export class CalendarFileError extends Error {}

/** The start of every message about the file. */
function about(file: string): string {
  return `--calendar ${file}`;
}

/**
 * The declaration in `file`, parsed as JSON but not yet checked (the simulator checks it: see
 * {@link calendarFileProblem}).
 *
 * @throws {@link CalendarFileError} when the file cannot be read or is not JSON
 */
export function readCalendarFile(file: string): CalendarDeclaration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CalendarFileError(`${about(file)}: cannot read it (${String(code ?? error)})`);
  }
  try {
    return JSON.parse(text) as CalendarDeclaration;
  } catch (error) {
    throw new CalendarFileError(
      `${about(file)}: not valid JSON (${error instanceof Error ? error.message : String(error)}); ` +
        'expected {"holidays": [{"market": "KR", "date": "YYYY-MM-DD"}], "specialSessions": [...]}',
    );
  }
}

/**
 * The simulator's refusal of the declaration (`invalid-simulator-option`, field `calendar…`) as
 * said of the file, e.g. `--calendar cal.json: holidays.0.date: not a calendar date`; null for an
 * error about another option.
 *
 * @param file - the `--calendar` file
 * @param error - what `startSimulator` threw
 */
export function calendarFileProblem(
  file: string,
  error: { readonly field?: string | undefined; readonly message: string },
): string | null {
  if (error.field === undefined || !/^calendar(\.|$)/.test(error.field)) return null;
  // the simulator's message starts with the field from the option's root (`calendar.holidays.0.date: …`;
  // `calendar.calendar: …` for the declaration as a whole): the file is that root
  const message = error.message.replace(/^calendar\.(calendar: )?/, '');
  return `${about(file)}: ${message}`;
}
