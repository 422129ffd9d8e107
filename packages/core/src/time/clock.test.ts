import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { LiveClock, ScaledClock, VirtualClock } from './clock.js';
import { formatKst, KST_ZONE } from './zones.js';

describe(LiveClock, () => {
  describe('.nowMs', () => {
    it('reads the system time', () => {
      const before = Date.now();
      const now = new LiveClock().nowMs();
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
    });
  });

  describe('.now', () => {
    it('returns a KST DateTime', () => {
      expect(new LiveClock().now().zoneName).toBe(KST_ZONE);
    });
  });
});

describe(VirtualClock, () => {
  describe('.now', () => {
    it('returns the start instant in KST when nothing moved it', () => {
      const clock = new VirtualClock('2026-11-23T00:00:00Z');
      expect(formatKst(clock.now())).toBe('2026-11-23T09:00:00.000+09:00');
      expect(clock.now().zoneName).toBe(KST_ZONE);
    });
  });

  describe('.advance', () => {
    it('moves forward by the given milliseconds', () => {
      const clock = new VirtualClock(1_000);
      clock.advance(250);
      expect(clock.nowMs()).toBe(1_250);
    });

    it('throws a ValidationError when the step is negative', () => {
      expect(() => new VirtualClock(0).advance(-1)).toThrow(ValidationError);
    });
  });

  describe('.set', () => {
    it('jumps to the instant, backwards too', () => {
      const clock = new VirtualClock('2026-11-23T09:00:00+09:00');
      clock.set('2026-11-20T09:00:00+09:00');
      expect(formatKst(clock.now())).toBe('2026-11-20T09:00:00.000+09:00');
    });

    it('throws a ValidationError when the instant is not valid', () => {
      expect(() => new VirtualClock(0).set('yesterday')).toThrow(ValidationError);
    });
  });
});

function fakeRealTime(start = 1_000_000): { now: () => number; tick: (ms: number) => void } {
  let t = start;
  return { now: () => t, tick: (ms) => (t += ms) };
}

describe(ScaledClock, () => {
  describe('.nowMs', () => {
    it('runs speed times faster than real time', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: '2026-11-23T08:59:00+09:00', speed: 60, realNowMs: real.now });
      real.tick(1_000);
      expect(formatKst(clock.now())).toBe('2026-11-23T09:00:00.000+09:00');
    });

    it('stands still when speed is 0', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: 5_000, speed: 0, realNowMs: real.now });
      real.tick(10_000);
      expect(clock.nowMs()).toBe(5_000);
    });

    it('runs at real speed by default', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: 0, realNowMs: real.now });
      real.tick(1_500);
      expect(clock.nowMs()).toBe(1_500);
    });
  });

  describe('.setSpeed', () => {
    it('changes the rate without a jump in simulated time', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: 0, speed: 10, realNowMs: real.now });
      real.tick(1_000);
      clock.setSpeed(2);
      expect(clock.nowMs()).toBe(10_000);
      expect(clock.getSpeed()).toBe(2);
      real.tick(1_000);
      expect(clock.nowMs()).toBe(12_000);
    });

    it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY]])(
      'throws a ValidationError when speed is %s',
      (speed) => {
        const clock = new ScaledClock({ start: 0 });
        expect(() => clock.setSpeed(speed)).toThrow(ValidationError);
      },
    );
  });

  describe('.set', () => {
    it('jumps and keeps running from there', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: 0, speed: 2, realNowMs: real.now });
      real.tick(500);
      clock.set('2026-11-23T09:00:00+09:00');
      real.tick(1_000);
      expect(formatKst(clock.now())).toBe('2026-11-23T09:00:02.000+09:00');
    });
  });

  describe('.advance', () => {
    it('adds simulated time on top of the running clock', () => {
      const real = fakeRealTime();
      const clock = new ScaledClock({ start: 0, speed: 3, realNowMs: real.now });
      real.tick(1_000);
      clock.advance(60_000);
      expect(clock.nowMs()).toBe(63_000);
    });

    it('throws a ValidationError when the step is negative', () => {
      expect(() => new ScaledClock({ start: 0 }).advance(-5)).toThrow(ValidationError);
    });
  });

  describe('.onChange', () => {
    it('tells its listeners of a new speed and of each jump, until they leave', () => {
      const clock = new ScaledClock({ start: 0, speed: 0 });
      let told = 0;
      const leave = clock.onChange(() => told++);
      clock.setSpeed(20);
      clock.set(5_000);
      clock.advance(1_000);
      expect(told).toBe(3);
      leave();
      clock.setSpeed(1);
      expect(told).toBe(3);
    });
  });
});
