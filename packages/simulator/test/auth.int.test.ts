import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle, SimulatorOptions } from '../src/index.js';
import { outcome, startTestSimulator, TestClient } from './sim-client.js';

const running: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function withSim(
  options: SimulatorOptions = {},
): Promise<{ sim: SimulatorHandle; client: TestClient }> {
  const sim = await startTestSimulator(options);
  running.push(sim);
  return { sim, client: new TestClient(sim.url) };
}

const prices = (client: TestClient) => client.get('/api/v1/prices', { symbols: '005930' });

describe('token authentication', () => {
  describe('POST /oauth2/token', () => {
    it('issues a token for the configured credentials and lets it call the API', async () => {
      const { sim } = await withSim({ clientId: 'my-app', clientSecret: 's3cret', tokenTtlSeconds: 600 });
      const client = new TestClient(sim.url, '1', 'my-app', 's3cret');
      const res = await client.tokenRequest({
        grant_type: 'client_credentials',
        client_id: 'my-app',
        client_secret: 's3cret',
      });
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
      client.useToken(res.body.access_token);
      expect(outcome(await prices(client))).toBe('200');
      expect(sim.counters().tokensIssued).toBe(1);
    });

    it('gives each issue a different opaque token', async () => {
      const { client } = await withSim();
      const tokens = [await client.login(), await client.login(), await client.login()];
      expect(new Set(tokens).size).toBe(3);
      for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    });
  });

  describe('revocation', () => {
    it('answers 401 token-revoked to the previous token once a new one is issued', async () => {
      const { client } = await withSim();
      const first = await client.login();
      await client.login();
      expect(outcome(await prices(client))).toBe('200');
      client.useToken(first);
      const res = await prices(client);
      expect(outcome(res)).toBe('401 token-revoked');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="openapi", error="invalid_token"/);
    });

    it('revokes through the handle and through POST /_sim/tokens/revoke', async () => {
      const { sim, client } = await withSim();
      await client.login();
      expect(sim.revokeToken()).toBe(1);
      expect(outcome(await prices(client))).toBe('401 token-revoked');
      await client.login();
      expect(await client.control('POST', '/_sim/tokens/revoke', { clientId: 'sim-client' })).toEqual({
        revoked: 1,
      });
      expect(outcome(await prices(client))).toBe('401 token-revoked');
      await client.login();
      expect(outcome(await prices(client))).toBe('200');
    });
  });

  describe('expiry', () => {
    it('answers 401 expired-token once the simulated lifetime has passed', async () => {
      const { sim, client } = await withSim({ tokenTtlSeconds: 3600 });
      await client.login();
      sim.advanceClock(3_599_000);
      expect(outcome(await prices(client))).toBe('200');
      sim.advanceClock(1_000);
      expect(outcome(await prices(client))).toBe('401 expired-token');
      await client.login();
      expect(outcome(await prices(client))).toBe('200');
    });

    it('lets a token expire with the scaled clock', async () => {
      // issued and used on a frozen clock, then the clock runs at ×600: 150 real ms are 90
      // simulated s, past the 60 s lifetime. Before, the clock ran at ×600 from the start, and the
      // token lived 100 real ms: on a loaded machine the login and the first request took longer,
      // and the request that had to pass was refused expired-token.
      const { sim, client } = await withSim({ tokenTtlSeconds: 60, speed: 0 });
      await client.login();
      expect(outcome(await prices(client))).toBe('200');
      sim.setSpeed(600);
      await new Promise((r) => setTimeout(r, 150));
      expect(outcome(await prices(client))).toBe('401 expired-token');
    });
  });

  describe('the Authorization header', () => {
    it.each([
      [undefined, '401 edge-blocked', 'Bearer realm="openapi"'],
      ['Basic c2ltOnNpbQ==', '401 invalid-token', 'Bearer realm="openapi", error="invalid_token"'],
      ['Bearer', '401 invalid-token', 'Bearer realm="openapi", error="invalid_token"'],
      ['Bearer abc.def', '401 invalid-token', 'Bearer realm="openapi", error="invalid_token"'],
    ])('answers %j with %s', async (authorization, expected, challenge) => {
      const { client } = await withSim();
      const res = await client.get(
        '/api/v1/prices',
        { symbols: 'AAPL' },
        {
          auth: false,
          ...(authorization === undefined ? {} : { headers: { authorization } }),
        },
      );
      expect(outcome(res)).toBe(expected);
      expect(res.headers.get('www-authenticate')?.startsWith(challenge)).toBe(true);
    });

    it('checks the token before the account header', async () => {
      const { client } = await withSim();
      const res = await client.get('/api/v1/holdings', undefined, { auth: false, account: null });
      expect(outcome(res)).toBe('401 edge-blocked');
    });
  });
});
