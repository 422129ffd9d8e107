/**
 * Generated parity cases: fast-check draws an abstract case (a symbol the simulator lists, a KST
 * instant around the sessions' edges on ordinary, special and closed days, a create, modify or
 * cancel with prices, quantities and amounts by kind, well-formed or malformed on purpose);
 * `resolveCase` (risk-parity-resolve.test-helper.ts) makes a concrete row of it.
 */

import fc from 'fast-check';

/** The simulator's listing (packages/simulator/src/market/universe.ts). */
const KR = ['005930', '000660', '035420', '069500', '035720', '247540', '900110'] as const;
const US = ['AAPL', 'NVDA', 'TSLA', 'MSFT', 'KO', 'SOXL', 'ZOM'] as const;
export const ETFS = new Set(['069500', 'SOXL']);
/** Symbols account 1 holds (sell open orders are placed on these only). */
export const HELD = ['005930', '000660', 'AAPL', 'NVDA'];

/**
 * KST days: ordinary weekdays, a Saturday, the CSAT day (KR 10:00–16:30), Thanksgiving (US closed),
 * the day after (US early close), Christmas Eve and Day, the KRX year-end closing, the first KRX
 * day of 2027 (10:00 opening).
 */
const DAYS = [
  '2026-11-19',
  '2026-11-20',
  '2026-11-21',
  '2026-11-23',
  '2026-11-24',
  '2026-11-26',
  '2026-11-27',
  '2026-11-28',
  '2026-12-24',
  '2026-12-25',
  '2026-12-31',
  '2027-01-04',
] as const;

/**
 * Session edges in minutes after KST midnight (New York is KST − 14 h in these months): KR 08:00,
 * 08:50, 09:00, 10:00, 15:20, 15:30, 15:40, 16:30, 20:00; US (KST) 10:00 day market, 17:50, 18:00
 * pre-market, 23:30 regular, 02:00/03:00 (an early close's last hour and end), 04:50–05:00 (last
 * hour), 05:50 (CLS freeze), 06:00 close, 08:00 after-market end.
 */
const EDGES = [
  480, 530, 540, 600, 920, 930, 940, 990, 1200, 1070, 1080, 1410, 120, 180, 290, 300, 350, 360, 480,
];

const minuteOfDay = fc.oneof(
  fc.integer({ min: 0, max: 1439 }),
  fc.tuple(fc.constantFrom(...EDGES), fc.constantFrom(-1, 0, 1, 5)).map(([m, d]) => (m + d + 1440) % 1440),
  // inside the KR regular session, and the US one (23:30–06:00 KST), where most orders are taken
  fc.integer({ min: 540, max: 929 }),
  fc.integer({ min: -30, max: 359 }).map((m) => (m + 1440) % 1440),
);

/** How a price is drawn, resolved against the moment's last price and limits. */
export type PriceKind =
  | { readonly kind: 'ticks'; readonly n: number }
  | { readonly kind: 'upper' | 'lower' | 'aboveUpper' | 'belowLower' | 'offGrid' | 'zero' | 'halfWon' };
const priceKind: fc.Arbitrary<PriceKind> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -60, max: 60 }).map((n) => ({ kind: 'ticks' as const, n })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('upper', 'lower', 'aboveUpper', 'belowLower', 'offGrid')
      .map((kind) => ({ kind })),
  },
);

/** How a quantity is drawn. */
export type QuantityKind =
  | { readonly kind: 'fixed'; readonly value: string }
  | { readonly kind: 'held'; readonly plus: string }
  | { readonly kind: 'highValue'; readonly plus: number }
  /** A modify's: the target's whole quantity. */
  | { readonly kind: 'target' }
  | { readonly kind: 'none' };
const wholeQuantity: fc.Arbitrary<QuantityKind> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.integer({ min: 1, max: 30 }).map((n) => ({ kind: 'fixed' as const, value: String(n) })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('1000000', '100000000000').map((value) => ({ kind: 'fixed' as const, value })),
  },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '-1').map((plus) => ({ kind: 'held' as const, plus })) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0).map((plus) => ({ kind: 'highValue' as const, plus })) },
);
/** A US market sell's fraction (up to 6 decimals), or what is held plus a fraction. */
const fractionalQuantity: fc.Arbitrary<QuantityKind> = fc.oneof(
  fc.constantFrom('0.5', '2.25', '0.000001').map((value) => ({ kind: 'fixed' as const, value })),
  fc.constantFrom('0.1', '-0.5').map((plus) => ({ kind: 'held' as const, plus })),
);
const amount = fc.constantFrom('0.5', '1', '100', '19000', '20000.01', '80000');

/** Ways a request is malformed on purpose (the broker's 400s and their order against the 422s). */
const MALFORMATIONS = [
  'priceOnMarket',
  'noPriceOnLimit',
  'zeroQuantity',
  'fractionNotUsMarketSell',
  'sevenDecimals',
  'quantityAndAmount',
  'neither',
  'amountNotUsMarket',
  'amountThreeDecimals',
  'clsNotUsLimit',
  'zeroPrice',
  'halfWonPrice',
  'modifyQuantityUs',
  'modifyNoQuantityKr',
] as const;
type Malformation = (typeof MALFORMATIONS)[number];

/** An abstract generated case. */
export interface GeneratedCase {
  readonly symbol: string;
  readonly day: string;
  readonly minute: number;
  readonly action: 'create' | 'modify' | 'cancel';
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly timeInForce: 'DAY' | 'CLS' | undefined;
  readonly price: PriceKind | null;
  readonly quantity: QuantityKind;
  readonly amount: string | null;
  readonly confirm: boolean;
  /** An open order placed first (the target of a modify or cancel; a create's neighbour). */
  readonly open: {
    readonly side: 'BUY' | 'SELL';
    readonly ticksAway: number;
    readonly quantity: number;
    readonly cls: boolean;
  } | null;
  /** Modify/cancel: the target cancelled first (an `already-canceled` case). */
  readonly targetCanceled: boolean;
}

export const isUs = (symbol: string) => (US as readonly string[]).includes(symbol);

/** A well-formed case of the drawn kind, malformed in one way about one time in four. */
function shaped(c: DrawnCase): GeneratedCase {
  const us = isUs(c.symbol);
  const limit = c.orderType === 'LIMIT';
  const usMarketSell = us && !limit && c.side === 'SELL';
  const usMarketBuy = us && !limit && c.side === 'BUY';
  let price: PriceKind | null = limit ? c.price : null;
  let quantity: QuantityKind = usMarketSell && c.fraction ? c.fractional : c.whole;
  let orderAmount: string | null = usMarketBuy && c.byAmount ? c.amount : null;
  if (orderAmount !== null) quantity = { kind: 'none' };
  let timeInForce: GeneratedCase['timeInForce'] = us && limit && c.cls ? 'CLS' : c.day ? 'DAY' : undefined;
  const broken: Malformation | null = c.malformed ? c.malformation : null;
  switch (broken) {
    case 'priceOnMarket':
      price = { kind: 'ticks', n: 0 };
      break;
    case 'noPriceOnLimit':
      price = null;
      break;
    case 'zeroQuantity':
      quantity = { kind: 'fixed', value: '0' };
      break;
    case 'fractionNotUsMarketSell':
      quantity = { kind: 'fixed', value: '1.5' };
      break;
    case 'sevenDecimals':
      quantity = { kind: 'fixed', value: '0.1234567' };
      break;
    case 'quantityAndAmount':
      quantity = { kind: 'fixed', value: '1' };
      orderAmount = c.amount;
      break;
    case 'neither':
      quantity = { kind: 'none' };
      orderAmount = null;
      break;
    case 'amountNotUsMarket':
      quantity = { kind: 'none' };
      orderAmount = '100';
      break;
    case 'amountThreeDecimals':
      quantity = { kind: 'none' };
      orderAmount = '100.005';
      break;
    case 'clsNotUsLimit':
      timeInForce = 'CLS';
      break;
    case 'zeroPrice':
      price = { kind: 'zero' };
      break;
    case 'halfWonPrice':
      price = { kind: 'halfWon' };
      break;
    default:
      break;
  }
  // a modify: KR carries a quantity (up to the target's), US none
  const modifyQuantity: QuantityKind =
    broken === 'modifyNoQuantityKr' || (us && broken !== 'modifyQuantityUs')
      ? { kind: 'none' }
      : c.modifyQuantity === 0
        ? { kind: 'target' }
        : { kind: 'fixed', value: String(c.modifyQuantity) };
  return {
    symbol: c.symbol,
    day: c.dayOfCase,
    minute: c.minute,
    action: c.action,
    side: c.side,
    orderType: c.orderType,
    timeInForce,
    price,
    quantity: c.action === 'modify' ? modifyQuantity : quantity,
    amount: c.action === 'modify' ? null : orderAmount,
    confirm: c.confirm,
    open: c.open,
    targetCanceled: c.targetCanceled,
  };
}

/** The fields drawn independently, before {@link shaped} makes a case of them. */
const drawn = fc.record({
  symbol: fc.constantFrom(...KR, ...US),
  dayOfCase: fc.constantFrom(...DAYS),
  minute: minuteOfDay,
  action: fc.constantFrom('create', 'create', 'create', 'modify', 'cancel'),
  side: fc.constantFrom('BUY', 'SELL'),
  orderType: fc.constantFrom('LIMIT', 'LIMIT', 'MARKET'),
  cls: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  day: fc.boolean(),
  price: priceKind,
  whole: wholeQuantity,
  fraction: fc.boolean(),
  fractional: fractionalQuantity,
  byAmount: fc.boolean(),
  amount,
  malformed: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  malformation: fc.constantFrom(...MALFORMATIONS),
  modifyQuantity: fc.integer({ min: 0, max: 4 }),
  confirm: fc.boolean(),
  open: fc.option(
    fc.record({
      side: fc.constantFrom('BUY', 'SELL'),
      // below 0: marketable (it may fill at once)
      ticksAway: fc.integer({ min: -2, max: 20 }),
      // 0: large (a buy of about 90% of the cash, a sell of all that is held)
      quantity: fc.integer({ min: 0, max: 3 }),
      cls: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    }),
    { freq: 2 },
  ),
  targetCanceled: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
});
type DrawnCase = typeof drawn extends fc.Arbitrary<infer T> ? T : never;

/** The case arbitrary: well-formed orders of every kind, a quarter of them malformed on purpose. */
export const generatedCase: fc.Arbitrary<GeneratedCase> = drawn.map(shaped);
