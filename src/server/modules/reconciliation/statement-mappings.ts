/**
 * The statement files staff may upload, one mapping each (schemas/reconciliation/statements/<name>.json, checked by
 * schemas/meta/statementMapping.schema.json): which column holds what and how dates are written. Adding a PSP's or
 * a bank's format is adding a file here. A payout report (source payout) names the transfers of a gateway's takings
 * into our bank (payouts.ts).
 */
import bankAccount from '../../../../schemas/reconciliation/statements/bankAccount.json' with { type: 'json' };
import sandbox from '../../../../schemas/reconciliation/statements/sandbox.json' with { type: 'json' };
import zarinpal from '../../../../schemas/reconciliation/statements/zarinpal.json' with { type: 'json' };
import zarinpalPayouts from '../../../../schemas/reconciliation/statements/zarinpalPayouts.json' with { type: 'json' };
import type { StatementMapping } from '../../../generated/schemas/statementMapping';

export type { StatementMapping };

const all = [sandbox, zarinpal, zarinpalPayouts, bankAccount] as StatementMapping[];

export const STATEMENT_MAPPINGS: ReadonlyMap<string, StatementMapping> = new Map(all.map((m) => [m.name, m]));
