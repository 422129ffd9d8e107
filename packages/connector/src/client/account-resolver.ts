/**
 * The account header value when none is configured: the first account the broker lists, remembered
 * beside the shared token so that hoga processes run one after another ask the broker once (the
 * `ACCOUNT` group allows one request a second: a second process asking within the same second met
 * a 429 and a retry), and resolved anew when the broker no longer knows it.
 *
 * @module
 */
import type { Logger } from '@hoga/core';
import { ConnectorError } from '../errors.js';
import type { TokenManager } from '../token/token-manager.js';

/** What {@link AccountResolver} works with. */
export interface AccountResolverDeps {
  /** The configured account (`accountSeq`), which always wins. */
  readonly configured: number | undefined;
  /** The shared token; its cache entry holds the remembered account. */
  readonly tokens: TokenManager;
  /** `GET /api/v1/accounts`' `accountSeq`s, in the broker's order. */
  readonly listAccounts: (signal?: AbortSignal) => Promise<readonly number[]>;
  readonly logger?: Logger | undefined;
}

/** See the module description. */
export class AccountResolver {
  private account: Promise<number> | null = null;
  /** Accounts the broker answered `account-not-found` for: never taken from the cache again. */
  private readonly refused = new Set<number>();

  /** @param deps - configured account, token manager, accounts list */
  constructor(private readonly deps: AccountResolverDeps) {}

  /**
   * The configured account, else the one remembered beside the token, else the first of the list
   * (then remembered for every process on this base URL and client id). Concurrent callers share
   * one lookup.
   *
   * @param signal - aborts the lookup
   */
  accountSeq(signal?: AbortSignal): Promise<number> {
    if (this.deps.configured !== undefined) return Promise.resolve(this.deps.configured);
    if (this.account === null) {
      const account = this.resolve(signal);
      this.account = account;
      account.catch(() => {
        if (this.account === account) this.account = null;
      });
    }
    return this.account;
  }

  /**
   * The broker answered 404 `account-not-found` for `accountSeq`: a configured account stays (the
   * error is the answer); a resolved one is forgotten here and in the token cache.
   *
   * @returns whether sending the call again, with the account resolved anew, may help
   */
  async refusedAccount(accountSeq: number): Promise<boolean> {
    if (this.deps.configured !== undefined) return false;
    this.refused.add(accountSeq);
    const current = this.account;
    if (
      current !== null &&
      (await current.catch(() => undefined)) === accountSeq &&
      this.account === current
    ) {
      this.account = null;
    }
    await this.deps.tokens.forgetAccount(accountSeq).catch(() => undefined);
    return true;
  }

  private async resolve(signal?: AbortSignal): Promise<number> {
    const remembered = (await this.deps.tokens.token(signal)).accountSeq;
    if (remembered !== undefined && !this.refused.has(remembered)) return remembered;
    const [first] = await this.deps.listAccounts(signal);
    if (first === undefined)
      throw new ConnectorError('no-account', 'the broker lists no account for this client');
    // not remembered (the cache cannot be written): this process goes on with it all the same
    await this.deps.tokens.rememberAccount(first).catch((error: unknown) => {
      this.deps.logger?.warn({ error: String(error) }, 'could not remember the account in the token cache');
    });
    return first;
  }
}
