/**
 * Schemas and domain types of the Account, Asset and Order Info endpoints: accounts, holdings,
 * buying power, sellable quantity and commissions.
 *
 * @module
 */
import { z } from 'zod';
import { currency, decimal, nullableDate, nullableDecimal, openEnum, withRaw } from './primitives.js';

/** One element of the `GET /accounts` result. */
export const AccountSchema = withRaw(
  z.object({
    accountNo: z.string(),
    accountSeq: z.union([
      z.number().int().nonnegative(),
      z
        .string()
        .regex(/^\d+$/)
        .transform((s) => Number(s)),
    ]),
    accountType: openEnum([
      'BROKERAGE',
      'OVERSEAS_DERIVATIVES',
      'PENSION_SAVINGS',
      'RESHORING_INVESTMENT',
    ] as const),
  }),
);
/** An account; `accountSeq` is the value of the account header. */
export type Account = z.output<typeof AccountSchema>;

/** Amounts per currency (`usd` null when the account holds no USD positions). */
const perCurrency = z.object({ krw: decimal, usd: nullableDecimal.optional().transform((v) => v ?? null) });
/** Per-currency sums. */
export type PerCurrencyAmount = z.output<typeof perCurrency>;

const holdingsItem = withRaw(
  z.object({
    symbol: z.string(),
    name: z.string(),
    marketCountry: openEnum(['KR', 'US'] as const),
    currency,
    quantity: decimal,
    lastPrice: decimal,
    averagePurchasePrice: decimal,
    marketValue: z.object({ purchaseAmount: decimal, amount: decimal, amountAfterCost: decimal }),
    profitLoss: z.object({
      amount: decimal,
      amountAfterCost: decimal,
      rate: decimal,
      rateAfterCost: decimal,
    }),
    dailyProfitLoss: z.object({ amount: decimal, rate: decimal }),
    cost: z.object({ commission: decimal, tax: nullableDecimal.optional().transform((v) => v ?? null) }),
  }),
);
/** One holding; rates are decimal fractions (0.1077 = 10.77 %). */
export type HoldingItem = z.output<typeof holdingsItem>;

/** `GET /holdings` result: the combined summary and the items. */
export const HoldingsSchema = withRaw(
  z.object({
    totalPurchaseAmount: perCurrency,
    marketValue: z.object({ amount: perCurrency, amountAfterCost: perCurrency }),
    profitLoss: z.object({
      amount: perCurrency,
      amountAfterCost: perCurrency,
      rate: decimal,
      rateAfterCost: decimal,
    }),
    dailyProfitLoss: z.object({ amount: perCurrency, rate: decimal }),
    items: z.array(holdingsItem),
  }),
);
/** Holdings with valuation and profit or loss. */
export type Holdings = z.output<typeof HoldingsSchema>;

/** `GET /buying-power` result. */
export const BuyingPowerSchema = withRaw(z.object({ currency, cashBuyingPower: decimal }));
/** Cash buying power in one currency. */
export type BuyingPower = z.output<typeof BuyingPowerSchema>;

/** `GET /sellable-quantity` result. */
export const SellableQuantitySchema = withRaw(z.object({ sellableQuantity: decimal }));
/** Sellable quantity of one stock. */
export type SellableQuantity = z.output<typeof SellableQuantitySchema>;

/** One element of the `GET /commissions` result. */
export const CommissionSchema = withRaw(
  z.object({
    marketCountry: openEnum(['KR', 'US'] as const),
    commissionRate: decimal,
    startDate: nullableDate.optional().transform((v) => v ?? null),
    endDate: nullableDate.optional().transform((v) => v ?? null),
  }),
);
/** A commission rate: a decimal fraction of the trade amount (fee = amount × rate, per the spec). */
export type Commission = z.output<typeof CommissionSchema>;
