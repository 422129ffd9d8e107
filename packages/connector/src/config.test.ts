import { describe, expect, it } from 'vitest';
import { parseConnectorConfig } from './config.js';
import { ConnectorConfigError } from './errors.js';

const valid = { baseUrl: 'http://127.0.0.1:18080/', clientId: 'id', clientSecret: 'secret' };

describe('parseConnectorConfig', () => {
  it('fills defaults and trims the trailing slash', () => {
    const config = parseConnectorConfig(valid);
    expect(config.baseUrl).toBe('http://127.0.0.1:18080');
    expect(config.accountHeader).toBe('X-Service-Account');
    expect(config.requestTimeoutMs).toBe(10_000);
    expect(config.accountSeq).toBeUndefined();
  });

  it('accepts accountSeq as digits (from the environment)', () => {
    expect(parseConnectorConfig({ ...valid, accountSeq: '7' }).accountSeq).toBe(7);
  });

  it.each([
    { input: { ...valid, baseUrl: 'ftp://x' }, field: 'baseUrl' },
    { input: { ...valid, baseUrl: 'not a url' }, field: 'baseUrl' },
    { input: { ...valid, baseUrl: 'http://user@127.0.0.1:18080' }, field: 'baseUrl' },
    { input: { ...valid, clientId: ' ' }, field: 'clientId' },
    { input: { ...valid, clientSecret: '' }, field: 'clientSecret' },
    { input: { ...valid, accountSeq: 'one' }, field: 'accountSeq' },
    { input: { ...valid, accountHeader: 'X Bad' }, field: 'accountHeader' },
    { input: { ...valid, requestTimeoutMs: -1 }, field: 'requestTimeoutMs' },
  ])('rejects a bad $field with a ConnectorConfigError naming it', ({ input, field }) => {
    try {
      parseConnectorConfig(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConnectorConfigError);
      const e = error as ConnectorConfigError;
      expect(e.code).toBe('invalid-config');
      expect(e.issues.some((issue) => issue.startsWith(`${field}:`))).toBe(true);
      expect(e.pretty).toContain(field);
    }
  });

  it('never puts the secret into the error', () => {
    try {
      parseConnectorConfig({ ...valid, clientSecret: 'top-secret-value', baseUrl: 'bad' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('top-secret-value');
      expect((error as ConnectorConfigError).pretty).not.toContain('top-secret-value');
    }
  });

  it('refuses a base URL with a password in it, without quoting the password', () => {
    try {
      parseConnectorConfig({ ...valid, baseUrl: 'https://user:url-password-9d1@broker.example/api' });
      expect.unreachable();
    } catch (error) {
      const e = error as ConnectorConfigError;
      expect(e.issues).toEqual([expect.stringMatching(/^baseUrl: .*without a user name or password/)]);
      expect(`${e.message}${e.pretty}`).not.toContain('url-password-9d1');
    }
  });
});
