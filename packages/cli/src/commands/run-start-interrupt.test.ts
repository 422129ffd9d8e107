import { describe, expect, it } from 'vitest';
import { interruptedStartLine } from './run-start-interrupt.js';

describe('interruptedStartLine', () => {
  it('says whether the strategies placed orders as the run started', () => {
    expect(interruptedStartLine(0)).toBe(
      'hoga run: interrupted during start-up; the run stopped once it was up: no order was placed\n',
    );
    expect(interruptedStartLine(1)).toContain('its strategies placed 1 order as it started (above)');
    expect(interruptedStartLine(3)).toContain('its strategies placed 3 orders as it started (above)');
  });
});
