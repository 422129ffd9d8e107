import { brokerErrorStatus } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { ruleCaseVerdict } from './rule-case-runner.js';
import { BROKER_RULE_CASES } from './rule-cases.js';

describe('BROKER_RULE_CASES', () => {
  it('has unique ids and covers accepted and refused cases', () => {
    const ids = BROKER_RULE_CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(BROKER_RULE_CASES.some((c) => c.expected === 'accepted')).toBe(true);
    expect(BROKER_RULE_CASES.some((c) => c.expected !== 'accepted')).toBe(true);
  });

  it.each(BROKER_RULE_CASES.map((c) => ({ ...c, label: `${c.id} ${c.description}` })))(
    '$label: $expected',
    (row) => {
      const verdict = ruleCaseVerdict(row);
      if (row.expected === 'accepted') {
        expect(verdict).toMatchObject({ accepted: true });
        return;
      }
      expect(verdict).toMatchObject({
        accepted: false,
        code: row.expected,
        status: brokerErrorStatus(row.expected),
      });
      if (!verdict.accepted) expect(verdict.message.length).toBeGreaterThan(0);
    },
  );
});
