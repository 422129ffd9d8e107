import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('redacts tokens and secrets at the top level and one level down', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream, name: 'test' });
    logger.info(
      {
        access_token: 'tok-1',
        accessToken: 'tok-2',
        client_secret: 'sec-1',
        clientSecret: 'sec-2',
        authorization: 'Bearer tok-3',
        token: 'tok-4',
        headers: { authorization: 'Bearer tok-5' },
        body: { token: 'tok-6', accessToken: 'tok-7', clientSecret: 'sec-3', client_secret: 'sec-4' },
        symbol: '005930',
      },
      'token issued',
    );
    const [line] = out.lines();
    const text = JSON.stringify(line);
    for (const secret of [
      'tok-1',
      'tok-2',
      'tok-3',
      'tok-4',
      'tok-5',
      'tok-6',
      'tok-7',
      'sec-1',
      'sec-2',
      'sec-3',
      'sec-4',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({
      accessToken: '[redacted]',
      symbol: '005930',
      name: 'test',
      msg: 'token issued',
    });
  });

  it('keeps redacting in child loggers', () => {
    const out = capture();
    createLogger({ destination: out.stream })
      .child({ component: 'connector' })
      .warn({ clientSecret: 's' }, 'x');
    expect(out.lines()[0]).toMatchObject({ component: 'connector', clientSecret: '[redacted]' });
  });

  it('drops lines below the level', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream, level: 'warn' });
    logger.info('hidden');
    logger.error('shown');
    expect(out.lines().map((l) => l.msg)).toEqual(['shown']);
  });
});

describe('createLogger with LOG_LEVEL', () => {
  it.each([
    ['debug', ['debug', 'info']],
    ['loud', ['info']],
  ])('uses LOG_LEVEL=%s as %j', (envLevel, expected) => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = envLevel;
    try {
      const out = capture();
      const logger = createLogger({ destination: out.stream });
      logger.trace('trace');
      logger.debug('debug');
      logger.info('info');
      expect(out.lines().map((l) => l.msg)).toEqual(expected);
    } finally {
      if (previous === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous;
    }
  });
});
