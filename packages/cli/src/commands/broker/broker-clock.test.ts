import { describe, expect, it } from 'vitest';
import { type SimClockRead, simulatedNow } from './broker-clock.js';

const read = (sentMs: number, answeredMs: number, simMs: number, speed = 30): SimClockRead => ({
  sentMs,
  answeredMs,
  simMs,
  speed,
});

describe('simulatedNow', () => {
  it('takes a read as made halfway through its round trip and moves on at its speed', () => {
    // read at real 105 (between 100 and 110), 20 real ms later: 600 simulated ms on
    expect(simulatedNow([read(100, 110, 1_000_000)], 125)).toEqual({ ms: 1_000_600, speed: 30 });
  });

  it('takes the read answered fastest', () => {
    // the first read (a cold connection) took 100 ms; the third 2 ms
    const reads = [read(0, 100, 5_000), read(100, 110, 5_000), read(110, 112, 6_000)];
    expect(simulatedNow(reads, 111).ms).toBe(6_000);
  });

  it('stays at the time a frozen simulator answered', () => {
    expect(simulatedNow([read(0, 40, 7_000, 0)], 1_000)).toEqual({ ms: 7_000, speed: 0 });
  });

  it('throws without a read', () => {
    expect(() => simulatedNow([], 0)).toThrow('no read of the simulator clock');
  });
});
