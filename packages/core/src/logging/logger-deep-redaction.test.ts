import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

/** A logger writing to a string, and that string. */
function capture(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ destination: stream, level: 'debug' }), text: () => chunks.join('') };
}

// Before: the redaction paths reached one level down only (`*.token`, `*.headers.authorization`):
// an error carrying its request (`err.config.headers.Authorization`, `err.request.headers`), a
// token endpoint form body as text, a token two levels down or in an array, was written in clear.
describe('createLogger redaction at any depth', () => {
  it('hides tokens and secrets however deep, in errors, arrays and form bodies', () => {
    const { logger, text } = capture();
    logger.info({ err: { config: { headers: { Authorization: 'Bearer T-3' } } } }, 'config');
    logger.info({ body: 'grant_type=client_credentials&client_id=x&client_secret=S-5' }, 'form');
    logger.info({ a: { b: { access_token: 'T-6' } } }, 'deep');
    logger.info({ tokens: [{ accessToken: 'T-10' }] }, 'array');
    const withRequest = Object.assign(new Error('request failed'), {
      request: { headers: { authorization: 'Bearer T-11' } },
    });
    logger.info({ err: withRequest }, 'error');
    logger.error(
      Object.assign(new Error('direct'), { config: { headers: { authorization: 'Bearer T-13' } } }),
    );
    logger.error(new Error('outer', { cause: Object.assign(new Error('inner'), { clientSecret: 'S-14' }) }));
    logger.warn({ header: 'Bearer T-15' }, 'header text');
    const out = text();
    expect(out).not.toMatch(/[TS]-\d+/);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(8);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ err: { config: { headers: { Authorization: '[redacted]' } } } });
    expect(parsed[1]?.body).toBe('grant_type=client_credentials&client_id=x&client_secret=[redacted]');
    expect(parsed[4]).toMatchObject({ err: { type: 'Error', message: 'request failed' } });
    expect(parsed[5]).toMatchObject({ err: { type: 'Error', message: 'direct' }, msg: 'direct' });
    expect(parsed[7]?.header).toBe('Bearer [redacted]');
  });

  it('keeps values that are not secrets, and does not change the logged objects', () => {
    const { logger, text } = capture();
    const fields = { symbol: '005930', nested: { price: '69700', tokenType: 'Bearer' }, list: [1, 'two'] };
    logger.info(fields, 'plain');
    const line = JSON.parse(text()) as Record<string, unknown>;
    expect(line).toMatchObject({
      symbol: '005930',
      nested: { price: '69700', tokenType: 'Bearer' },
      list: [1, 'two'],
    });
    expect(fields.nested.price).toBe('69700');
  });
});

// Before: a child logger's bindings got only the fixed-depth paths above: a token two levels down in
// a binding, or a `Bearer …` string bound as a field, was written in clear on every line of the child.
describe('createLogger redaction of child bindings', () => {
  it('hides tokens and secrets however deep in the bindings of a child (and of its children)', () => {
    const { logger, text } = capture();
    const child = logger.child({
      component: 'connector',
      session: { auth: { credentials: { accessToken: 'T-21' } } },
      header: 'Bearer T-22',
      requests: [{ headers: { authorization: 'Bearer T-23' } }],
      form: 'grant_type=client_credentials&client_secret=S-24',
    });
    child.info({ symbol: '005930' }, 'bound');
    child.child({ deeper: { a: { b: { clientSecret: 'S-25' } } } }).warn('grandchild');
    const out = text();
    expect(out).not.toMatch(/[TS]-\d+/);
    const [first, second] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({
      component: 'connector',
      symbol: '005930',
      header: 'Bearer [redacted]',
      session: { auth: { credentials: { accessToken: '[redacted]' } } },
      form: 'grant_type=client_credentials&client_secret=[redacted]',
    });
    expect(second).toMatchObject({
      component: 'connector',
      deeper: { a: { b: { clientSecret: '[redacted]' } } },
    });
  });

  it('hides a bearer token in the message text, an error taken as the message, and a prefix', () => {
    const { logger, text } = capture();
    logger.child({ component: 'x' }).info('sent with Bearer T-26');
    logger.info({ a: 1 }, 'sent with access_token=T-27');
    logger.error(new Error('refused: Bearer T-28'));
    logger.child({}, { msgPrefix: 'Bearer T-29 ' }).info('prefixed');
    const out = text();
    expect(out).not.toMatch(/T-2\d/);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[2]).toMatchObject({ msg: 'refused: Bearer [redacted]', err: { type: 'Error' } });
    expect(lines[3]?.msg).toBe('Bearer [redacted] prefixed');
  });

  // Before: only keys named exactly as a secret (clientSecret, access_token, …) were hidden, and in
  // text only `client_secret=` / `access_token=`: an environment's HOGA_CLIENT_SECRET, an apiKey,
  // an x-auth-token header and a JSON body quoted as text were written in clear.
  it('hides keys that end as a secret does, `NAME=value` lines and JSON members in text', () => {
    const { logger, text } = capture();
    logger.info(
      { env: { HOGA_CLIENT_SECRET: 'S-31', HOGA_TOKEN_FILE: '/tmp/t.json' }, apiKey: 'S-32' },
      'environment',
    );
    logger.info({ headers: { 'x-auth-token': 'T-33' }, tokenType: 'Bearer', endpoint: 'issueToken' }, 'h');
    logger.info('HOGA_CLIENT_ID=c\nHOGA_CLIENT_SECRET=S-34\nHOGA_TOKEN_FILE=/tmp/t.json');
    logger.info({ body: '{"access_token":"T-35","token_type":"Bearer","expires_in":86400}' }, 'body');
    logger.info('issueToken: requesting an access token');
    const out = text();
    expect(out).not.toMatch(/[TS]-3\d/);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ env: { HOGA_TOKEN_FILE: '/tmp/t.json' }, apiKey: '[redacted]' });
    expect(lines[1]).toMatchObject({ tokenType: 'Bearer', endpoint: 'issueToken' });
    expect(lines[2]?.msg).toBe(
      'HOGA_CLIENT_ID=c\nHOGA_CLIENT_SECRET=[redacted]\nHOGA_TOKEN_FILE=/tmp/t.json',
    );
    expect(lines[3]?.body).toBe('{"access_token":"[redacted]","token_type":"Bearer","expires_in":86400}');
    expect(lines[4]?.msg).toBe('issueToken: requesting an access token');
  });

  // Before: an object of a class of its own was kept as it was (pino then wrote its fields, a token
  // two levels down in clear), and so was anything more than 10 levels deep.
  it("hides secrets in a class's objects and beyond the depth it copies", () => {
    const { logger, text } = capture();
    class Session {
      readonly inner = { accessToken: 'T-41' };
      readonly when = new Date(0);
    }
    logger.info({ session: new Session() }, 'instance');
    let deep: Record<string, unknown> = { accessToken: 'T-42' };
    for (let i = 0; i < 15; i++) deep = { next: deep };
    logger.info({ deep }, 'deep');
    const out = text();
    expect(out).not.toMatch(/T-4\d/);
    const [first] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first?.session).toEqual({
      inner: { accessToken: '[redacted]' },
      when: '1970-01-01T00:00:00.000Z',
    });
  });
});
