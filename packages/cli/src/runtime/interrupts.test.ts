import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type InterruptSignal, type InterruptTarget, listenForInterrupts } from './interrupts.js';

/**
 * A process stand-in: signals are emitted as Node emits them (the signal's name as argument), an
 * exit or a kill by a re-raised signal is recorded (and ends nothing), stderr is kept.
 */
class FakeProcess extends EventEmitter implements InterruptTarget {
  readonly ends: string[] = [];
  err = '';
  readonly stderr = { write: (text: string) => (this.err += text) };
  exit(code: number): void {
    this.ends.push(`exit ${code}`);
  }
  send(signal: InterruptSignal): void {
    this.emit(signal, signal);
  }
  /**
   * signal-exit's listener, as proper-lockfile (the token cache's lock) loads it: when it finds
   * itself the only listener of the signal, it re-raises it, which kills the process.
   */
  loadSignalExit(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const listener = (): void => {
        if (this.listenerCount(signal) === 1) this.ends.push(`killed by ${signal}`);
      };
      this.on(signal, listener);
    }
  }
}

describe('listenForInterrupts', () => {
  it('aborts its signal on the first SIGINT and quits on the second, saying so, exit 130', () => {
    const proc = new FakeProcess();
    const firsts: string[] = [];
    let closed = 0;
    const interrupts = listenForInterrupts({
      quitMessage: 'hoga x: interrupted again: quitting at once',
      onFirst: (signal) => firsts.push(signal),
      onQuit: () => closed++,
      target: proc,
    });
    expect(interrupts.signal.aborted).toBe(false);
    proc.send('SIGINT');
    expect([interrupts.signal.aborted, interrupts.received, interrupts.exitCode]).toEqual([
      true,
      'SIGINT',
      130,
    ]);
    expect(firsts).toEqual(['SIGINT']);
    expect(proc.ends).toEqual([]);
    proc.send('SIGINT');
    expect(proc.err).toBe('hoga x: interrupted again: quitting at once\n');
    expect(closed).toBe(1);
    expect(proc.ends).toEqual(['exit 130']);
  });

  it('SIGTERM: exit 143 as the first signal and as the second', () => {
    const proc = new FakeProcess();
    const interrupts = listenForInterrupts({ quitMessage: () => 'quit', target: proc });
    proc.send('SIGTERM');
    expect(interrupts.exitCode).toBe(143);
    proc.send('SIGTERM');
    expect(proc.ends).toEqual(['exit 143']);
  });

  it('the second signal quits with its own code (SIGINT then SIGTERM: 143)', () => {
    const proc = new FakeProcess();
    const interrupts = listenForInterrupts({ quitMessage: 'quit', target: proc });
    proc.send('SIGINT');
    proc.send('SIGTERM');
    expect([interrupts.received, proc.ends]).toEqual(['SIGINT', ['exit 143']]);
  });

  it('reads a quit message given as a function when it quits', () => {
    const proc = new FakeProcess();
    let phase = 'starting';
    listenForInterrupts({ quitMessage: () => `quit while ${phase}`, target: proc });
    proc.send('SIGINT');
    phase = 'stopping';
    proc.send('SIGINT');
    expect(proc.err).toBe('quit while stopping\n');
  });

  it('quits even when closing before it throws', () => {
    const proc = new FakeProcess();
    listenForInterrupts({
      quitMessage: 'quit',
      onQuit: () => {
        throw new Error('already closed');
      },
      target: proc,
    });
    proc.send('SIGINT');
    proc.send('SIGINT');
    expect(proc.ends).toEqual(['exit 130']);
  });

  it('abort() stops as a first signal does: the next signal quits', () => {
    const proc = new FakeProcess();
    const interrupts = listenForInterrupts({ quitMessage: 'quit', target: proc });
    interrupts.abort();
    expect([interrupts.signal.aborted, interrupts.received]).toEqual([true, null]);
    proc.send('SIGINT');
    expect(proc.ends).toEqual(['exit 130']);
  });

  it('release() removes its listeners (idempotent)', () => {
    const proc = new FakeProcess();
    const interrupts = listenForInterrupts({ quitMessage: 'quit', target: proc });
    expect([proc.listenerCount('SIGINT'), proc.listenerCount('SIGTERM')]).toEqual([1, 1]);
    interrupts.release();
    interrupts.release();
    expect([proc.listenerCount('SIGINT'), proc.listenerCount('SIGTERM')]).toEqual([0, 0]);
  });

  describe('beside signal-exit (the token cache lock library)', () => {
    it('registered before it: the first signal stops gracefully, the second quits with our message', () => {
      const proc = new FakeProcess();
      const interrupts = listenForInterrupts({ quitMessage: 'quit', target: proc });
      proc.loadSignalExit();
      proc.send('SIGINT');
      expect([interrupts.signal.aborted, proc.ends]).toEqual([true, []]);
      proc.send('SIGINT');
      expect(proc.ends).toEqual(['exit 130']);
    });

    it('registered after it: the same', () => {
      const proc = new FakeProcess();
      proc.loadSignalExit();
      const interrupts = listenForInterrupts({ quitMessage: 'quit', target: proc });
      proc.send('SIGTERM');
      expect([interrupts.signal.aborted, proc.ends]).toEqual([true, []]);
      proc.send('SIGTERM');
      expect(proc.ends).toEqual(['exit 143']);
    });

    // why the listener is not a `once`: the pattern `hoga data download` had
    it('a process.once listener registered before it: the first Ctrl-C is re-raised (the hazard)', () => {
      const proc = new FakeProcess();
      const abort = new AbortController();
      proc.once('SIGINT', () => abort.abort());
      proc.loadSignalExit();
      proc.send('SIGINT');
      expect([abort.signal.aborted, proc.ends]).toEqual([true, ['killed by SIGINT']]);
    });
  });
});
