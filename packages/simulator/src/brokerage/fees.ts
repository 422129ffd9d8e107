import { COMMISSION_RATES, KR_COMMISSION_PERIOD } from '@hoga/broker-model';

/** The payload of `GET /api/v1/commissions`: the broker model's rates, as decimal fractions. */
export function commissionsPayload(): unknown {
  return [
    {
      marketCountry: 'KR',
      commissionRate: COMMISSION_RATES.KR.toFixed(),
      startDate: KR_COMMISSION_PERIOD.startDate,
      endDate: KR_COMMISSION_PERIOD.endDate,
    },
    { marketCountry: 'US', commissionRate: COMMISSION_RATES.US.toFixed(), startDate: null, endDate: null },
  ];
}
