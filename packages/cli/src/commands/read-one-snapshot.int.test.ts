/**
 * `hoga data export`, `hoga data list` and `hoga risk status` on a database another process is
 * writing (WAL): every read of one command sees one snapshot, as the `hoga db` read commands do
 * (before: each statement saw the file as it was then, so the symbols listed and the candles read
 * for them, or the risk states of two scopes, could be of two moments).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { StoreTradingStatePersistence } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openExisting } from './data-actions.js';
import { openRiskStore } from './risk-actions.js';

const NOV_3 = Date.UTC(2025, 10, 3);
const DAY = { start: NOV_3, end: NOV_3 + 86_400_000 };
const price = new Decimal('70000');
const bar = { ts: NOV_3, open: price, high: price, low: price, close: price, volume: new Decimal('1') };

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-one-snapshot-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('commands reading a file being written', () => {
  it('data export and data list read one snapshot from the first read to close', () => {
    const writer = HogaDatabase.open(file);
    try {
      writer.candles.store({ symbol: '005930', interval: '1d', adjusted: true }, DAY, [bar]);
      const reading = openExisting(file, 'data export');
      const symbols = () =>
        reading.db.connection
          .prepare('SELECT DISTINCT symbol FROM candle_ranges ORDER BY symbol')
          .pluck()
          .all();
      try {
        const first = symbols();
        writer.candles.store({ symbol: '000660', interval: '1d', adjusted: true }, DAY, [bar]);
        writer.candles.store({ symbol: '005930', interval: '1d', adjusted: true }, DAY, [
          { ...bar, close: new Decimal('71000') },
        ]);
        expect(first).toEqual(['005930']);
        expect(symbols()).toEqual(['005930']);
        const key = { symbol: '005930', interval: '1d', adjusted: true } as const;
        expect(reading.db.candles.get(key, DAY).map((c) => c.close.toString())).toEqual(['70000']);
        expect(reading.db.candles.get({ ...key, symbol: '000660' }, DAY)).toEqual([]);
      } finally {
        reading.close();
      }
      // the writer was never held up, and the next command sees what it wrote
      const next = openExisting(file, 'data list');
      try {
        expect(
          next.db.connection.prepare('SELECT COUNT(DISTINCT symbol) FROM candle_ranges').pluck().get(),
        ).toBe(2);
      } finally {
        next.close();
      }
    } finally {
      writer.close();
    }
  });

  it('risk status reads one snapshot from the first read to close', () => {
    const writer = HogaDatabase.open(file);
    const written = new StoreTradingStatePersistence(writer, 'live');
    const entry = {
      state: 'HALTED',
      source: 'manual',
      reason: 'by hand',
      sinceMs: 1,
      untilMs: null,
    } as const;
    try {
      written.save('account', entry);
      const reading = openRiskStore(file);
      try {
        const read = new StoreTradingStatePersistence(reading.db, 'live');
        expect([...read.load().keys()]).toEqual(['account']);
        written.save('strategy:s1', entry);
        written.save('account', null);
        expect([...read.load().keys()]).toEqual(['account']);
      } finally {
        reading.close();
      }
    } finally {
      writer.close();
    }
  });
});
