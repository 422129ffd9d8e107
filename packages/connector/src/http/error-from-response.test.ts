import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ServerError,
} from '../errors.js';
import { errorFromResponse, parseRetryAfter, requestIdOf } from './error-from-response.js';

const envelope = (code: string, data?: unknown) =>
  JSON.stringify({
    error: { requestId: 'req-1', code, message: `message of ${code}`, ...(data ? { data } : {}) },
  });

describe('errorFromResponse', () => {
  it.each([
    {
      status: 400,
      code: 'invalid-request',
      type: RequestValidationError,
      family: 'validation',
      retryable: false,
    },
    {
      status: 400,
      code: 'account-header-required',
      type: RequestValidationError,
      family: 'validation',
      retryable: false,
    },
    {
      status: 401,
      code: 'token-revoked',
      type: AuthenticationError,
      family: 'authentication',
      retryable: false,
    },
    { status: 403, code: 'forbidden', type: AuthenticationError, family: 'authentication', retryable: false },
    { status: 404, code: 'order-not-found', type: NotFoundError, family: 'not-found', retryable: false },
    { status: 409, code: 'request-in-progress', type: ConflictError, family: 'conflict', retryable: true },
    { status: 409, code: 'already-filled', type: ConflictError, family: 'conflict', retryable: false },
    {
      status: 422,
      code: 'order-hours-closed',
      type: BusinessRuleError,
      family: 'business-rule',
      retryable: false,
    },
    { status: 429, code: 'rate-limit-exceeded', type: RateLimitError, family: 'rate-limit', retryable: true },
    {
      status: 429,
      code: 'edge-rate-limit-exceeded',
      type: RateLimitError,
      family: 'rate-limit',
      retryable: true,
    },
    { status: 500, code: 'internal-error', type: ServerError, family: 'server', retryable: true },
    { status: 500, code: 'maintenance', type: ServerError, family: 'server', retryable: true },
    { status: 500, code: 'something-else', type: ServerError, family: 'server', retryable: false },
    { status: 503, code: 'http-503', type: ServerError, family: 'server', retryable: true },
  ])(
    'maps $status $code to $type.name (retryable $retryable)',
    ({ status, code, type, family, retryable }) => {
      const body = code.startsWith('http-') ? '' : envelope(code);
      const error = errorFromResponse('ep', { status, headers: {}, body }, 0);
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, code, family, retryable, endpoint: 'ep' });
    },
  );

  it('keeps the envelope data and request id', () => {
    const data = { field: 'symbols', constraint: { min: 1, max: 200 } };
    const error = errorFromResponse(
      'getPrices',
      { status: 400, headers: {}, body: envelope('invalid-request', data) },
      0,
    );
    expect(error.data).toEqual(data);
    expect(error.requestId).toBe('req-1');
    expect(error.message).toContain('request req-1');
  });

  it('reads the OAuth 2.0 error form of the token endpoint', () => {
    const body = JSON.stringify({ error: 'invalid_client', error_description: 'client_secret is wrong' });
    const error = errorFromResponse(
      'issueToken',
      { status: 401, headers: { 'x-request-id': 'h-1' }, body },
      0,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'invalid_client', requestId: 'h-1' });
    expect(error.message).toContain('client_secret is wrong');
  });

  it('names an HTML page by its title, and reads the text of other markup without its tags', () => {
    const html = errorFromResponse(
      'x',
      { status: 502, headers: {}, body: '<html><body>bad</body></html>' },
      0,
    );
    expect(html.message).toContain("an HTML page instead of the broker's JSON");
    const xml =
      '<?xml version="1.0"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    const error = errorFromResponse('x', { status: 403, headers: {}, body: xml }, 0);
    expect(error.message).toContain('AccessDenied Access Denied');
    expect(error.message).not.toMatch(/[<>\n]/);
  });

  it('keeps a plain-text body on one line', () => {
    const error = errorFromResponse(
      'x',
      { status: 503, headers: {}, body: 'upstream\n  connect error\r\n' },
      0,
    );
    expect(error.message).toContain('upstream connect error');
    expect(error.message).not.toMatch(/[\r\n]/);
  });

  it('reads Retry-After into a 429', () => {
    const error = errorFromResponse(
      'x',
      { status: 429, headers: { 'retry-after': '2' }, body: envelope('rate-limit-exceeded') },
      0,
    ) as RateLimitError;
    expect(error.retryAfterMs).toBe(2000);
  });
});

describe('requestIdOf', () => {
  it.each([
    { headers: { 'x-request-id': 'a', 'cf-ray': 'b' }, envelope: undefined, expected: 'a' },
    { headers: { 'cf-ray': 'b', referenceid: 'c' }, envelope: undefined, expected: 'b' },
    { headers: { referenceid: 'c', 'x-amz-cf-id': 'd' }, envelope: undefined, expected: 'c' },
    { headers: { 'x-amz-cf-id': 'd' }, envelope: undefined, expected: 'd' },
    { headers: { 'x-request-id': 'a' }, envelope: 'env', expected: 'env' },
    { headers: {}, envelope: undefined, expected: null },
  ])('prefers the envelope, then X-Request-Id, cf-ray, referenceId, x-amz-cf-id ($expected)', (row) => {
    expect(requestIdOf(row.headers, row.envelope)).toBe(row.expected);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    { value: '1', expected: 1000 },
    { value: '0.5', expected: 500 },
    { value: undefined, expected: null },
    { value: 'soon', expected: null },
    { value: 'Thu, 01 Jan 1970 00:00:05 GMT', expected: 5000 },
    { value: '1e10', expected: 300_000 },
    { value: 'Fri, 01 Jan 2100 00:00:00 GMT', expected: 300_000 },
  ])('parses $value as $expected ms (at most 5 minutes)', ({ value, expected }) => {
    expect(parseRetryAfter(value, 0)).toBe(expected);
  });
});
