/** What the reconciliation page's parts share: the row and day shapes, and the query key of one day. */
import type { components } from '../../../../generated/api';

export type Day = components['schemas']['ReconciliationDay'];
export type Row = components['schemas']['ReconciliationRow'];

export const dayQueryKey = (day: string) => ['reconciliation', 'day', day];
