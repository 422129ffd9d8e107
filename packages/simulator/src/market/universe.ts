/**
 * The simulated listing: seven KR and seven US instruments with their reference data and the
 * parameters of their price processes.
 *
 * @module
 */
import type { Instrument } from '@hoga/core';
import type { SimInstrument } from './market-model.js';
import type { StockMarket } from './stock-info.js';

/** A stock split: trading days before `date` are quoted on the old share basis. */
export interface SplitEvent {
  /** First trading day on the new basis (`YYYY-MM-DD`). */
  readonly date: string;
  /** Factor applied to older prices when adjusting (e.g. `0.1` for a 1:10 split). */
  readonly ratio: number;
}

/** A purchase warning as the warnings endpoint shows it. */
export interface WarningSpec {
  readonly warningType: string;
  readonly exchange: string | null;
  readonly startDate: string;
  readonly endDate: string | null;
}

/** Everything the simulator knows about one instrument. */
export interface InstrumentSpec extends SimInstrument {
  /** The core instrument (drives the tick grid). */
  readonly instrument: Instrument;
  readonly listDate: string;
  readonly sharesOutstanding: string;
  readonly isCommonShare: boolean;
  /** KR: trades after the close (KRX after-hours single price) even without NXT. */
  readonly afterMarketEligible: boolean;
  /** KR: the date from which trading is suspended (prices frozen, no trades), or null. */
  readonly suspendedSince: string | null;
  /** Close around 2026-11-20 (the process is anchored there, ±5% by seed). */
  readonly basePrice: number;
  /** Daily volatility of the log price. */
  readonly dailyVol: number;
  /** Typical daily volume in current shares. */
  readonly avgDailyVolume: number;
  readonly splits: readonly SplitEvent[];
  readonly warnings: readonly WarningSpec[];
}

type SpecInput = Omit<InstrumentSpec, 'instrument' | 'currency' | 'country' | 'suspended' | 'exchange'> & {
  readonly country: 'KR' | 'US';
  /** The listing market, from the reference's enumeration only. */
  readonly exchange: StockMarket;
};

function spec(input: SpecInput): InstrumentSpec {
  const currency = input.country === 'KR' ? 'KRW' : 'USD';
  return {
    ...input,
    currency,
    suspended: input.suspendedSince !== null,
    instrument: {
      symbol: input.symbol,
      market: input.country,
      currency,
      securityType: input.securityType,
      name: input.englishName,
    },
  };
}

const KR = { country: 'KR', leverageFactor: null, prerequisiteRequired: false, isCommonShare: true } as const;
const US = {
  country: 'US',
  leverageFactor: null,
  prerequisiteRequired: false,
  isCommonShare: true,
  nxtSupported: false,
  afterMarketEligible: false,
  suspendedSince: null,
  warnings: [],
} as const;

/** The listing, KR first. */
export const UNIVERSE: readonly InstrumentSpec[] = [
  spec({
    ...KR,
    symbol: '005930',
    name: '삼성전자',
    englishName: 'SamsungElec',
    isinCode: 'KR7005930003',
    exchange: 'KOSPI',
    securityType: 'STOCK',
    nxtSupported: true,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '1975-06-11',
    sharesOutstanding: '5919637922',
    basePrice: 64_000,
    dailyVol: 0.016,
    avgDailyVolume: 15_000_000,
    splits: [{ date: '2018-05-04', ratio: 0.02 }],
    warnings: [],
  }),
  spec({
    ...KR,
    symbol: '000660',
    name: 'SK하이닉스',
    englishName: 'SK hynix',
    isinCode: 'KR7000660001',
    exchange: 'KOSPI',
    securityType: 'STOCK',
    nxtSupported: true,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '1996-12-26',
    sharesOutstanding: '728002365',
    basePrice: 182_000,
    dailyVol: 0.024,
    avgDailyVolume: 3_000_000,
    splits: [],
    warnings: [
      { warningType: 'OVERHEATED', exchange: 'KRX', startDate: '2026-11-19', endDate: '2026-11-27' },
    ],
  }),
  spec({
    ...KR,
    symbol: '035420',
    name: 'NAVER',
    englishName: 'NAVER',
    isinCode: 'KR7035420009',
    exchange: 'KOSPI',
    securityType: 'STOCK',
    nxtSupported: true,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '2008-11-28',
    sharesOutstanding: '158437008',
    basePrice: 212_000,
    dailyVol: 0.02,
    avgDailyVolume: 700_000,
    splits: [],
    warnings: [],
  }),
  spec({
    ...KR,
    symbol: '069500',
    name: 'KODEX 200',
    englishName: 'KODEX 200',
    isinCode: 'KR7069500007',
    exchange: 'KOSPI',
    securityType: 'ETF',
    leverageFactor: '1',
    nxtSupported: false,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '2002-10-14',
    sharesOutstanding: '208050000',
    basePrice: 35_400,
    dailyVol: 0.01,
    avgDailyVolume: 5_000_000,
    splits: [],
    warnings: [],
  }),
  spec({
    ...KR,
    symbol: '035720',
    name: '카카오',
    englishName: 'Kakao',
    isinCode: 'KR7035720002',
    exchange: 'KOSPI',
    securityType: 'STOCK',
    nxtSupported: true,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '2017-07-10',
    sharesOutstanding: '441950000',
    basePrice: 42_000,
    dailyVol: 0.022,
    avgDailyVolume: 2_000_000,
    splits: [{ date: '2021-04-15', ratio: 0.2 }],
    warnings: [],
  }),
  spec({
    ...KR,
    symbol: '247540',
    name: '에코프로비엠',
    englishName: 'EcoProBM',
    isinCode: 'KR7247540008',
    exchange: 'KOSDAQ',
    securityType: 'STOCK',
    nxtSupported: true,
    afterMarketEligible: true,
    suspendedSince: null,
    listDate: '2019-03-05',
    sharesOutstanding: '97801344',
    basePrice: 178_000,
    dailyVol: 0.035,
    avgDailyVolume: 500_000,
    splits: [],
    warnings: [
      { warningType: 'INVESTMENT_WARNING', exchange: 'KRX', startDate: '2026-11-02', endDate: null },
      { warningType: 'OVERHEATED', exchange: 'KRX', startDate: '2026-10-01', endDate: '2026-10-05' },
    ],
  }),
  spec({
    ...KR,
    symbol: '900110',
    name: '이스트아시아홀딩스',
    englishName: 'EastAsiaHoldings',
    isinCode: 'HK0000057197',
    exchange: 'KOSDAQ',
    securityType: 'STOCK',
    nxtSupported: false,
    afterMarketEligible: false,
    suspendedSince: '2026-08-18',
    listDate: '2010-03-30',
    sharesOutstanding: '140000000',
    basePrice: 152,
    dailyVol: 0.03,
    avgDailyVolume: 900_000,
    splits: [],
    warnings: [],
  }),
  spec({
    ...US,
    symbol: 'AAPL',
    name: '애플',
    englishName: 'APPLE INC',
    isinCode: 'US0378331005',
    exchange: 'NASDAQ',
    securityType: 'STOCK',
    listDate: '1980-12-12',
    sharesOutstanding: '14702703000',
    basePrice: 231.5,
    dailyVol: 0.016,
    avgDailyVolume: 50_000_000,
    splits: [],
  }),
  spec({
    ...US,
    symbol: 'NVDA',
    name: '엔비디아',
    englishName: 'NVIDIA CORP',
    isinCode: 'US67066G1040',
    exchange: 'NASDAQ',
    securityType: 'STOCK',
    listDate: '1999-01-22',
    sharesOutstanding: '24300000000',
    basePrice: 181.2,
    dailyVol: 0.028,
    avgDailyVolume: 200_000_000,
    splits: [
      { date: '2021-07-20', ratio: 0.25 },
      { date: '2024-06-10', ratio: 0.1 },
    ],
  }),
  spec({
    ...US,
    symbol: 'TSLA',
    name: '테슬라',
    englishName: 'TESLA INC',
    isinCode: 'US88160R1014',
    exchange: 'NASDAQ',
    securityType: 'STOCK',
    listDate: '2010-06-29',
    sharesOutstanding: '3220000000',
    basePrice: 402.7,
    dailyVol: 0.035,
    avgDailyVolume: 90_000_000,
    splits: [],
  }),
  spec({
    ...US,
    symbol: 'MSFT',
    name: '마이크로소프트',
    englishName: 'MICROSOFT CORP',
    isinCode: 'US5949181045',
    exchange: 'NASDAQ',
    securityType: 'STOCK',
    listDate: '1986-03-13',
    sharesOutstanding: '7430000000',
    basePrice: 421.3,
    dailyVol: 0.014,
    avgDailyVolume: 20_000_000,
    splits: [],
  }),
  spec({
    ...US,
    symbol: 'KO',
    name: '코카콜라',
    englishName: 'COCA-COLA CO',
    isinCode: 'US1912161007',
    exchange: 'NYSE',
    securityType: 'STOCK',
    listDate: '1919-09-05',
    sharesOutstanding: '4300000000',
    basePrice: 70.4,
    dailyVol: 0.009,
    avgDailyVolume: 12_000_000,
    splits: [],
  }),
  spec({
    ...US,
    symbol: 'SOXL',
    name: '디렉시온 데일리 반도체 불 3배 ETF',
    englishName: 'DIREXION DAILY SEMICONDUCTOR BULL 3X SHARES',
    isinCode: 'US25459W4583',
    // Listed on NYSE Arca, which the reference's enumeration lacks. Korean brokers' US exchange
    // codes are NYSE, NASDAQ and AMEX, and they file NYSE Arca listings (SPY, SOXL, most ETFs)
    // under AMEX; US_ETC would hide that it trades on a national exchange.
    exchange: 'AMEX',
    securityType: 'ETF',
    leverageFactor: '3',
    prerequisiteRequired: true,
    listDate: '2010-03-11',
    sharesOutstanding: '140000000',
    basePrice: 31.4,
    dailyVol: 0.06,
    avgDailyVolume: 60_000_000,
    splits: [],
  }),
  spec({
    ...US,
    symbol: 'ZOM',
    name: '조메디카',
    englishName: 'ZOMEDICA CORP',
    isinCode: 'CA98980M1095',
    exchange: 'AMEX',
    securityType: 'STOCK',
    listDate: '2017-11-21',
    sharesOutstanding: '979000000',
    basePrice: 0.1534,
    dailyVol: 0.04,
    avgDailyVolume: 5_000_000,
    splits: [],
  }),
];

/**
 * `count` generated KR stocks (KOSDAQ, symbols `400001`, `400002`, …, no warnings, no splits), for
 * benchmarks that need a wider universe than the listing above (e.g. a paper engine watching 200
 * symbols). Deterministic: the same count gives the same instruments; prices come from the seed's
 * processes like any other listing.
 */
export function generatedStocks(count: number): InstrumentSpec[] {
  const out: InstrumentSpec[] = [];
  for (let i = 1; i <= count; i++) {
    const symbol = String(400_000 + i);
    out.push(
      spec({
        ...KR,
        symbol,
        name: `생성종목${i}`,
        englishName: `GENERATED ${i}`,
        isinCode: `KR7${symbol}000`,
        exchange: 'KOSDAQ',
        securityType: 'STOCK',
        nxtSupported: false,
        afterMarketEligible: false,
        suspendedSince: null,
        listDate: '2015-01-02',
        sharesOutstanding: '50000000',
        // 5,000 to 94,900 won, spread over the tick bands
        basePrice: 5_000 + ((i * 7_919) % 900) * 100,
        dailyVol: 0.02,
        avgDailyVolume: 500_000,
        splits: [],
        warnings: [],
      }),
    );
  }
  return out;
}
