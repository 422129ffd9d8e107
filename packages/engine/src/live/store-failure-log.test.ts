import { createLogger } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { StoreFailureLog } from './store-failure-log.js';

/** A log over a captured logger and a clock the test moves. */
function failureLog() {
  const lines: { level: number; msg: string; repeats?: number }[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const clock = { now: 0 };
  const log = new StoreFailureLog(
    logger,
    {
      first: 'could not store a denied order',
      more: 'denied orders could not be stored',
      moreOne: 'denied order could not be stored',
      again: 'denied orders are stored again',
    },
    () => clock.now,
  );
  const said = () => lines.map((l) => `${l.level} ${l.msg}`);
  return { log, clock, said };
}

const full = new Error('database or disk is full');

describe(StoreFailureLog, () => {
  it('logs the first failure with its cause, counts the repeats, and says them when writes go through again', () => {
    const { log, clock, said } = failureLog();
    for (let i = 0; i < 5; i++) {
      clock.now += 1_000;
      log.failed(full, { clientOrderId: `o${i}` });
    }
    expect(said()).toEqual(['50 could not store a denied order']);
    log.stored();
    log.stored();
    expect(said().slice(1)).toEqual([
      '30 denied orders are stored again; 4 more denied orders could not be stored (database or disk is full)',
    ]);
    // a new failure later is the first again
    log.failed(full, {});
    expect(said()).toHaveLength(3);
  });

  it('says the repeats on the first one a minute after the last line, and the rest at the stop', () => {
    const { log, clock, said } = failureLog();
    log.failed(full, {});
    clock.now += 30_000;
    log.failed(full, {});
    clock.now += 30_000;
    log.failed(full, {});
    clock.now += 1_000;
    log.failed(full, {});
    expect(said()).toEqual([
      '50 could not store a denied order',
      '40 2 more denied orders could not be stored (database or disk is full)',
    ]);
    log.flush();
    log.flush();
    expect(said().slice(2)).toEqual([
      '40 1 more denied order could not be stored (database or disk is full)',
    ]);
  });

  it('says nothing when writes go through', () => {
    const { log, said } = failureLog();
    log.stored();
    log.flush();
    expect(said()).toEqual([]);
  });
});
