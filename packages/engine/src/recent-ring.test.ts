import { describe, expect, it } from 'vitest';
import { RecentRing } from './recent-ring.js';

describe('RecentRing', () => {
  it('keeps the last items added, answering the one each add displaces once full', () => {
    const ring = new RecentRing<string>(3);
    expect([ring.add('a'), ring.add('b'), ring.add('c')]).toEqual([undefined, undefined, undefined]);
    expect(ring.add('d')).toBe('a');
    expect(ring.add('e')).toBe('b');
    expect(ring.findNewest((x) => x === 'a')).toBeUndefined();
    expect(ring.findNewest((x) => x === 'c')).toBe('c');
  });

  it('finds the newest item that matches, before it is full and after it wrapped', () => {
    const ring = new RecentRing<{ id: string; n: number }>(4);
    ring.add({ id: 'x', n: 1 });
    ring.add({ id: 'y', n: 2 });
    ring.add({ id: 'x', n: 3 });
    expect(ring.findNewest((o) => o.id === 'x')?.n).toBe(3);
    expect(ring.findNewest((o) => o.id === 'z')).toBeUndefined();
    for (let n = 4; n <= 9; n++) ring.add({ id: n % 2 === 0 ? 'x' : 'y', n });
    expect(ring.findNewest((o) => o.id === 'x')?.n).toBe(8);
    expect(ring.findNewest((o) => o.n === 5)).toBeUndefined();
    expect(ring.findNewest((o) => o.n === 6)?.id).toBe('x');
  });
});
