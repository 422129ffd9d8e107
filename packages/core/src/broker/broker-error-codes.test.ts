import { describe, expect, it } from 'vitest';
import {
  BROKER_ERROR_CODES,
  BROKER_ERRORS,
  brokerErrorStatus,
  isBrokerErrorCode,
} from './broker-error-codes.js';
import { firstRefusal, invalidRequest, refuse } from './broker-verdict.js';

describe('BROKER_ERRORS', () => {
  it.each([
    ['invalid-request', 400],
    ['confirm-high-value-required', 400],
    ['us-modify-quantity-not-supported', 400],
    ['stock-not-found', 404],
    ['already-filled', 409],
    ['already-processing', 409],
    ['insufficient-buying-power', 422],
    ['opposite-pending-order-exists', 422],
    ['max-order-amount-exceeded', 422],
    ['rate-limit-exceeded', 429],
    ['maintenance', 500],
  ] as const)('gives %s the status %i', (code, status) => {
    expect(brokerErrorStatus(code)).toBe(status);
  });

  it('has kebab-case codes and statuses of the spec only', () => {
    for (const code of BROKER_ERROR_CODES) {
      expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect([400, 401, 403, 404, 409, 422, 429, 500]).toContain(BROKER_ERRORS[code].status);
    }
  });

  it('tells codes from other strings', () => {
    expect(isBrokerErrorCode('price-out-of-range')).toBe(true);
    expect(isBrokerErrorCode('toString')).toBe(false);
    expect(isBrokerErrorCode('no-such-code')).toBe(false);
  });
});

describe('refuse', () => {
  it('takes the status from the table and keeps the data', () => {
    expect(refuse('stock-restricted', 'suspended')).toEqual({
      accepted: false,
      code: 'stock-restricted',
      status: 422,
      message: 'suspended',
    });
    expect(invalidRequest('price', 'bad', { constraint: { exclusiveMin: 0 } }).data).toEqual({
      field: 'price',
      constraint: { exclusiveMin: 0 },
    });
  });

  it('answers the first refusal in order', () => {
    const verdict = firstRefusal(
      () => ({ accepted: true }),
      () => refuse('order-hours-closed', 'closed'),
      () => refuse('stock-restricted', 'never reached'),
    );
    expect(verdict).toMatchObject({ accepted: false, code: 'order-hours-closed' });
  });
});
