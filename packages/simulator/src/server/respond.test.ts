import { describe, expect, it } from 'vitest';
import { resultBody, resultText } from './respond.js';

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

describe('resultBody', () => {
  it('gives the same bytes for the same array object and fresh bytes for a new one', () => {
    const items = [{ symbol: 'AAPL', lastPrice: '1' }];
    const first = resultBody(items, true);
    expect(first.toString()).toBe(JSON.stringify({ result: items }));
    expect(resultBody(items, true)).toBe(first);
    const next = [{ symbol: 'AAPL', lastPrice: '2' }];
    expect(resultBody(next, true).toString()).toBe(JSON.stringify({ result: next }));
  });

  it('serializes afresh every time without reuse', () => {
    const items = [{ a: 1 }];
    expect(resultBody(items, false)).not.toBe(resultBody(items, false));
    expect(resultBody({ x: 'é' }, false).toString('utf8')).toBe('{"result":{"x":"é"}}');
  });
});
