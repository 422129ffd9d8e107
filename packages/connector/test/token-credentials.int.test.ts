import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerClient, FileTokenCache, MemoryTokenCache } from '../src/index.js';
import { KR_MORNING } from './simulator-fixture.js';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ start: KR_MORNING });
});
afterAll(async () => {
  await sim.close();
});

const clients: BrokerClient[] = [];
afterAll(() => {
  for (const client of clients) client.close();
});

/** A client of `sim-client` with the given secret, on a shared token cache. */
function client(clientSecret: string, tokenCache: FileTokenCache | MemoryTokenCache): BrokerClient {
  const made = new BrokerClient({
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret, accountSeq: 1 },
    tokenCache,
  });
  clients.push(made);
  return made;
}

describe('TokenManager with a shared token cache', () => {
  it('refuses a wrong client secret with invalid_client although a token for the right one is cached', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoga-creds-')), 'tokens.json');
    const issuedBefore = sim.counters().tokensIssued;
    const right = client('sim-secret', new FileTokenCache(file));
    await right.getCommissions();
    expect(sim.counters().tokensIssued - issuedBefore).toBe(1);

    const wrong = client('not-the-secret', new FileTokenCache(file));
    await expect(wrong.getCommissions()).rejects.toMatchObject({ code: 'invalid_client', status: 401 });
    // The wrong caller proved nothing and replaced nothing: the right token still works everywhere.
    expect(sim.counters().tokensIssued - issuedBefore).toBe(1);
    await right.getCommissions();
    await client('sim-secret', new FileTokenCache(file)).getCommissions();
    expect(sim.counters().tokensIssued - issuedBefore).toBe(1);

    // The entry records a salted fingerprint of the credentials, never the secret.
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sim-secret');
    const entry = Object.values(JSON.parse(text) as Record<string, { credentialFingerprint?: string }>)[0];
    expect(entry?.credentialFingerprint).toMatch(/^scrypt\$/);
  });

  it('lets a caller with other right credentials prove them by issuing, replacing the token for everyone', async () => {
    const cache = new MemoryTokenCache();
    const key = `${sim.url}|sim-client`;
    const first = client('sim-secret', cache);
    await first.getCommissions();
    // An entry whose fingerprint was made from other credentials (a rotated secret, say).
    const cached = (await cache.read(key))!;
    await cache.write(key, { ...cached, credentialFingerprint: undefined });
    const issuedBefore = sim.counters().tokensIssued;
    const second = client('sim-secret', cache);
    await second.getCommissions();
    expect(sim.counters().tokensIssued - issuedBefore).toBe(1);
    expect((await cache.read(key))!.accessToken).not.toBe(cached.accessToken);
    // The first client's token was revoked by that issue; it adopts the new one from the cache.
    await first.getCommissions();
    expect(sim.counters().tokensIssued - issuedBefore).toBe(1);
  });
});
