/** Public payment method groups (api/public/searchPaymentMethodGroups), for the desks' payment method select. */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type PaymentMethodGroup = components['schemas']['PaymentMethodGroup'];

export const paymentMethodGroupsQuery = {
  queryKey: ['public', 'paymentMethodGroups'],
  queryFn: () =>
    call<{ items: PaymentMethodGroup[] }>(
      api.POST('/api/public/searchPaymentMethodGroups', { body: { perPage: 100 } }),
    ),
};
