import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { HogaDatabase } from '../src/hoga-database.js';
import { SqliteTokenCache } from '../src/token/sqlite-token-cache.js';
import { useChildScript } from './child-script.test-helper.js';
import { bumpUnderLease, getOrIssueToken } from './processes/token-dance.js';
import { collectLines, exited, spawnNode } from './spawn-child.js';

const WRITER = join(import.meta.dirname, 'processes', 'order-writer.ts');
const ORDERS = 300;
const KEY = 'http://127.0.0.1:18080|sim-client';

const script = useChildScript(WRITER, 'hoga-two-');
const { dir } = script;

describe('HogaDatabase', () => {
  describe('with two processes on one file', () => {
    it('lets one read whole orders while the other writes them, sharing one token and one lease', async () => {
      const file = join(dir, 'shared.sqlite');
      const db = HogaDatabase.open(file);
      const tokens = new SqliteTokenCache(db, { pollIntervalMs: 2 });
      try {
        const child = spawnNode(script.bundle, [file, String(ORDERS), KEY]);
        const out = collectLines(child);
        const exit = exited(child);
        const counts: number[] = [];
        const readerTokens = new Set<string>();
        let bumps = 0;
        while (child.exitCode === null) {
          const orders = db.orders.list({ strategyId: 'writer', limit: 10_000 });
          counts.push(orders.length);
          // every order read back is whole and in creation order
          expect(orders.map((o) => o.quantity?.toNumber())).toEqual(orders.map((_, i) => i + 1));
          await bumpUnderLease(db, tokens, KEY);
          bumps++;
          readerTokens.add(await getOrIssueToken(db, tokens, KEY, 'reader'));
          await sleep(1);
        }
        expect(await exit, out.stderr()).toBe(0);
        const report = JSON.parse(out.lines[0] ?? '{}') as { orders: number; tokens: string[] };

        const all = db.orders.list({ strategyId: 'writer', limit: 10_000 });
        expect(all).toHaveLength(ORDERS);
        expect(all.every((o, k) => o.brokerOrderId === `B-${k}`)).toBe(true);
        expect(db.orders.findByBrokerOrderId(`B-${ORDERS - 1}`)?.clientOrderId).toBe(`w-${ORDERS - 1}`);
        // the reader saw the writer's progress, never going backwards
        expect(counts.length).toBeGreaterThan(1);
        expect(counts.every((c, i) => i === 0 || c >= counts[i - 1]!)).toBe(true);
        // one token issued in total, used by both processes
        expect(db.strategyState.get('test', 'issued')).toBe(1);
        expect(new Set([...readerTokens, ...report.tokens]).size).toBe(1);
        // the lease excluded both processes from each other: no increment lost
        expect(db.strategyState.get('test', 'counter')).toBe(bumps + Math.ceil(ORDERS / 5));
      } finally {
        db.close();
      }
    }, 60_000);
  });
});
