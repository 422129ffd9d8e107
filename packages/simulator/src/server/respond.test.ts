import { describe, expect, it } from 'vitest';
import { resultText } from './respond.js';

describe('resultText', () => {
  it.each([
    [[], false],
    [[], true],
    [[{ a: '1' }, { b: null }], true],
    [[1, 'x', null], true],
    [{ orders: [] }, true],
    ['text', true],
  ])('serializes %j (reuse %s) exactly as JSON.stringify({result})', (result, reuse) => {
    expect(resultText(result, reuse)).toBe(JSON.stringify({ result }));
  });

  it('reuses the text of an object it has seen', () => {
    const item = { symbol: 'AAPL', lastPrice: '1' };
    expect(resultText([item], true)).toBe('{"result":[{"symbol":"AAPL","lastPrice":"1"}]}');
    const replacement = { ...item, lastPrice: '2' };
    expect(resultText([item, replacement], true)).toBe(
      '{"result":[{"symbol":"AAPL","lastPrice":"1"},{"symbol":"AAPL","lastPrice":"2"}]}',
    );
  });
});
