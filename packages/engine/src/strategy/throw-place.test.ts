import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteStrategyFile, strategyFrameDepth, throwPlace } from './throw-place.js';

/** An error with the stack `frames` (the `at …` lines). */
function thrown(frames: readonly string[]): Error {
  const error = new Error('boom');
  error.stack = ['Error: boom', ...frames.map((f) => `    at ${f}`)].join('\n');
  return error;
}

class Mine {}
noteStrategyFile(Mine, '/home/q/strats/mine.ts');

describe(throwPlace, () => {
  it("names the first frame in the strategy's directory, relative to the working directory", () => {
    const error = thrown([
      'checkQuantity (file:///opt/hoga/packages/core/src/orders/order-intent.ts:40:11)',
      'StrategyHost.buy (file:///opt/hoga/packages/engine/src/runtime/strategy-host.ts:120:5)',
      'Mine.onBar (file:///home/q/strats/mine.ts:12:17)',
      'EngineRuntime.call (file:///opt/hoga/packages/engine/src/runtime/engine-runtime.ts:160:29)',
    ]);
    expect(throwPlace(error, Mine, '/home/q')).toBe(' (at strats/mine.ts:12:17)');
    // outside the working directory: the whole path
    expect(throwPlace(error, Mine, '/tmp')).toBe(' (at /home/q/strats/mine.ts:12:17)');
  });

  it("counts a module of the strategy's own beside it, but not a library under node_modules there", () => {
    const error = thrown([
      'sma (/home/q/strats/node_modules/some-lib/index.js:3:9)',
      'signal (/home/q/strats/lib/signals.ts:8:3)',
      'Mine.onBar (/home/q/strats/mine.ts:12:17)',
    ]);
    expect(throwPlace(error, Mine, '/home/q/strats')).toBe(' (at lib/signals.ts:8:3)');
  });

  it("leaves hoga's sources out when the strategy sits above them (at the repository's root)", () => {
    // hoga's sources are where this test's module is: a strategy at the root of that repository
    const root = resolve(import.meta.dirname, '..', '..', '..', '..');
    class AtRoot {}
    noteStrategyFile(AtRoot, join(root, 'mine.ts'));
    const error = thrown([
      `createOrderIntent (${join(root, 'packages/core/src/orders/order-intent.ts')}:40:11)`,
      `AtRoot.onBar (${join(root, 'mine.ts')}:9:14)`,
      `EngineRuntime.call (${join(root, 'packages/engine/src/runtime/engine-runtime.ts')}:160:29)`,
    ]);
    expect(throwPlace(error, AtRoot, root)).toBe(' (at mine.ts:9:14)');
  });

  it('names nothing for a class not loaded from a file, a frame-less error or a thrown non-error', () => {
    class Inline {}
    const error = thrown(['Inline.onBar (file:///home/q/strats/mine.ts:12:17)']);
    expect(throwPlace(error, Inline)).toBe('');
    expect(throwPlace(thrown(['<anonymous>']), Mine)).toBe('');
    expect(throwPlace('a string', Mine)).toBe('');
  });
});

describe(strategyFrameDepth, () => {
  it("tells how deep in the stack the strategy's own code is: the deepest of several strategies is the one the error came from", () => {
    class Theirs {}
    noteStrategyFile(Theirs, '/home/q/other/theirs.ts');
    // Mine's code threw, called from Theirs's
    const error = thrown([
      'check (file:///opt/hoga/packages/engine/src/runtime/strategy-host.ts:120:5)',
      'Mine.check (file:///home/q/strats/mine.ts:31:11)',
      'Theirs.onBar (file:///home/q/other/theirs.ts:12:17)',
    ]);
    expect(strategyFrameDepth(error, Mine)).toBe(1);
    expect(strategyFrameDepth(error, Theirs)).toBe(2);
  });

  it('is -1 for a class not loaded from a file, a stack without its frames or a rejected non-error', () => {
    class Inline {}
    expect(strategyFrameDepth(thrown(['Inline.onBar (file:///home/q/strats/mine.ts:12:17)']), Inline)).toBe(
      -1,
    );
    expect(strategyFrameDepth(thrown(['f (file:///opt/hoga/packages/core/src/x.ts:1:1)']), Mine)).toBe(-1);
    expect(strategyFrameDepth('no error object', Mine)).toBe(-1);
  });
});
