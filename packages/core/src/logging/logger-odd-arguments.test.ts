/**
 * What a strategy's `ctx.log` (a child of {@link createLogger}) may be given by a JavaScript
 * strategy: a Symbol as the message, or an object with no prototype as a format argument. Each is
 * written as a JSON line, and the call does not throw. Before, `log.info(Symbol('s'))` wrote
 * `"msg":undefined` (no JSON: the line broke every reader of the log), and `log.warn('%s', bare)`
 * threw `TypeError: Cannot convert object to primitive value` into the strategy's hook. Found by
 * the generated-input test of the strategy context (`engine/src/runtime/ctx-fuzz.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, lines };
}

describe('a logger given odd arguments', () => {
  it('writes a Symbol message as its text, on a JSON line', () => {
    const { logger, lines } = capture();
    logger.child({ component: 'strategy' }).info(Symbol('s') as never);
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0] as string) as { msg: string }).msg).toBe('Symbol(s)');
  });

  it('writes a format argument with no prototype without throwing', () => {
    const { logger, lines } = capture();
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(() => logger.warn('x %s %j %o', bare, bare, bare)).not.toThrow();
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0] as string) as { msg: string }).msg).toContain('x ');
  });
});
