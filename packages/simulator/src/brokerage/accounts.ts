import { Decimal } from '@hoga/core';
import { SimApiError } from '../api-error.js';
import { type Holding, Ledger } from './ledger.js';

/** One simulated brokerage account. */
export interface SimAccount {
  readonly accountSeq: number;
  readonly accountNo: string;
  readonly accountType: 'BROKERAGE';
  readonly ledger: Ledger;
}

function holdings(entries: readonly [string, string, string][]): Map<string, Holding> {
  return new Map(
    entries.map(([symbol, quantity, averagePrice]) => [
      symbol,
      { quantity: new Decimal(quantity), averagePrice: new Decimal(averagePrice) },
    ]),
  );
}

/**
 * The starting accounts, the same for every seed: account 1 is well funded
 * (KRW and USD cash, KR and US holdings including a fractional one); account
 * 2 holds little cash and nothing else, for buying-power tests.
 */
export function defaultAccounts(): SimAccount[] {
  return [
    {
      accountSeq: 1,
      accountNo: '12345678901',
      accountType: 'BROKERAGE',
      ledger: new Ledger(
        { KRW: new Decimal('50000000'), USD: new Decimal('20000.00') },
        holdings([
          ['005930', '100', '65000'],
          ['000660', '20', '180000'],
          ['AAPL', '10', '155.3'],
          ['NVDA', '5.5', '120.25'],
        ]),
      ),
    },
    {
      accountSeq: 2,
      accountNo: '12345678902',
      accountType: 'BROKERAGE',
      ledger: new Ledger({ KRW: new Decimal('100000'), USD: new Decimal('50.00') }),
    },
  ];
}

/** The accounts of the simulated user, keyed by `accountSeq`. */
export class AccountRegistry {
  private readonly bySeq = new Map<number, SimAccount>();

  constructor(accounts: readonly SimAccount[]) {
    for (const account of accounts) this.bySeq.set(account.accountSeq, account);
  }

  /** All accounts, by ascending `accountSeq`. */
  all(): SimAccount[] {
    return [...this.bySeq.values()].sort((a, b) => a.accountSeq - b.accountSeq);
  }

  /** The account of a known `accountSeq`; throws a programmer error otherwise. */
  get(accountSeq: number): SimAccount {
    const account = this.bySeq.get(accountSeq);
    if (!account) throw new Error(`AccountRegistry: unknown accountSeq ${accountSeq}`);
    return account;
  }

  /**
   * Resolves the account header: missing or empty → 400 `account-header-required`;
   * not a decimal integer, or no such account → 404 `account-not-found`.
   */
  require(header: string | undefined): number {
    if (header === undefined || header.trim() === '') {
      throw new SimApiError(
        400,
        'account-header-required',
        'The account header X-Service-Account is required',
      );
    }
    const text = header.trim();
    const seq = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (!this.bySeq.has(seq)) {
      throw new SimApiError(404, 'account-not-found', `No account with accountSeq ${JSON.stringify(text)}`);
    }
    return seq;
  }

  /** Payload of `GET /api/v1/accounts`. */
  payload(): unknown {
    return this.all().map((a) => ({
      accountNo: a.accountNo,
      accountSeq: a.accountSeq,
      accountType: a.accountType,
    }));
  }
}
