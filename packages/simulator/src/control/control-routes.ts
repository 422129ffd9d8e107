import { firstSchemaIssue, formatKst, schemaIssueLine } from '@hoga/core';
import { z } from 'zod';
import { SimApiError } from '../api-error.js';
import type { ControlDispatcher } from '../server/http-server.js';
import { Router } from '../server/router.js';
import type { SimulatorControl } from './control-api.js';

interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly pattern: string;
  handle(params: Record<string, string>, body: unknown): unknown;
}

const clockBody = z.strictObject({
  at: z.string().optional(),
  advanceMs: z.number().nonnegative().optional(),
  speed: z.number().nonnegative().optional(),
});
const priceBody = z.strictObject({ symbol: z.string().min(1), price: z.string().min(1) });
const revokeBody = z.strictObject({ clientId: z.string().min(1).optional() });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  // the first failed field, its value and what was expected, as the calendar's declaration says it
  const issue = firstSchemaIssue(result.error, body, 'body');
  throw new SimApiError(400, 'invalid-request', schemaIssueLine(issue), { field: issue.field });
}

/**
 * The `/_sim/*` HTTP routes of the control API (served only with `control: true`; `GET /_sim/clock`,
 * read-only, is answered without it too, so that an engine can follow the simulated clock).
 * Answers are plain JSON (no `{result}` envelope); errors use the `{error}` envelope.
 *
 * | Method | Path | Body | Answer |
 * |---|---|---|---|
 * | GET | `/_sim/clock` | | `{now, speed}` |
 * | POST | `/_sim/clock` | `{at?, advanceMs?, speed?}` (applied in that order) | `{now, speed}` |
 * | POST | `/_sim/prices` | `{symbol, price}` | `{symbol, price}` |
 * | GET | `/_sim/faults` | | `{faults}` |
 * | POST | `/_sim/faults` | a fault spec | `{id}` |
 * | DELETE | `/_sim/faults` | | `{cleared: true}` |
 * | DELETE | `/_sim/faults/{id}` | | `{removed}` |
 * | POST | `/_sim/tokens/revoke` | `{clientId?}` | `{revoked}` |
 * | GET | `/_sim/calendar` | | `{holidays, specialSessions}` |
 * | POST | `/_sim/calendar` | `{holidays?, specialSessions?}` | every declaration |
 * | DELETE | `/_sim/calendar` | | `{cleared: true}` |
 * | GET | `/_sim/counters` | | counters |
 */
export class ControlRoutes implements ControlDispatcher {
  private readonly router: Router<ControlRoute>;

  constructor(private readonly control: SimulatorControl) {
    this.router = new Router<ControlRoute>(this.routes());
  }

  /** Runs the control route for `method` and `path`; 404 `edge-blocked` when there is none. */
  async dispatch(method: string, path: string, _query: URLSearchParams, body: unknown): Promise<unknown> {
    const match = this.router.match(method, path);
    if (match === undefined) {
      throw new SimApiError(404, 'edge-blocked', `Control path not supported: ${method} ${path}`);
    }
    return match.route.handle(match.params, body);
  }

  private clock(): { now: string; speed: number } {
    return { now: formatKst(this.control.now()), speed: this.control.speed() };
  }

  private routes(): ControlRoute[] {
    const control = this.control;
    return [
      { method: 'GET', pattern: '/_sim/clock', handle: () => this.clock() },
      {
        method: 'POST',
        pattern: '/_sim/clock',
        handle: (_p, body) => {
          const input = parse(clockBody, body);
          if (input.at !== undefined) control.setClock(input.at);
          if (input.advanceMs !== undefined) control.advanceClock(input.advanceMs);
          if (input.speed !== undefined) control.setSpeed(input.speed);
          return this.clock();
        },
      },
      {
        method: 'POST',
        pattern: '/_sim/prices',
        handle: (_p, body) => {
          const input = parse(priceBody, body);
          control.setPrice(input.symbol, input.price);
          return input;
        },
      },
      { method: 'GET', pattern: '/_sim/faults', handle: () => ({ faults: control.faults() }) },
      {
        method: 'POST',
        pattern: '/_sim/faults',
        handle: (_p, body) => ({
          id: control.injectFault(body as Parameters<SimulatorControl['injectFault']>[0]),
        }),
      },
      {
        method: 'DELETE',
        pattern: '/_sim/faults',
        handle: () => {
          control.clearFaults();
          return { cleared: true };
        },
      },
      {
        method: 'DELETE',
        pattern: '/_sim/faults/{id}',
        handle: (params) => ({ removed: control.removeFault(params.id ?? '') }),
      },
      {
        method: 'POST',
        pattern: '/_sim/tokens/revoke',
        handle: (_p, body) => ({ revoked: control.revokeToken(parse(revokeBody, body).clientId) }),
      },
      { method: 'GET', pattern: '/_sim/calendar', handle: () => control.calendar() },
      {
        method: 'POST',
        pattern: '/_sim/calendar',
        handle: (_p, body) =>
          control.declareCalendar(body as Parameters<SimulatorControl['declareCalendar']>[0]),
      },
      {
        method: 'DELETE',
        pattern: '/_sim/calendar',
        handle: () => {
          control.clearCalendar();
          return { cleared: true };
        },
      },
      { method: 'GET', pattern: '/_sim/counters', handle: () => control.counters() },
    ];
  }
}
