/**
 * The statement formats staff can upload (schemas/reconciliation/statements), with the Persian title a person reads
 * wherever a format's name («bankAccount») would otherwise show: the upload's list and a bank line's evidence.
 */
// Named imports: only each file's name and title reach the bundle, not its columns.
import {
  name as bankAccount,
  title as bankAccountTitle,
} from '../../../../../schemas/reconciliation/statements/bankAccount.json';
import { name as sandbox, title as sandboxTitle } from '../../../../../schemas/reconciliation/statements/sandbox.json';
import {
  name as zarinpal,
  title as zarinpalTitle,
} from '../../../../../schemas/reconciliation/statements/zarinpal.json';
import {
  name as zarinpalPayouts,
  title as zarinpalPayoutsTitle,
} from '../../../../../schemas/reconciliation/statements/zarinpalPayouts.json';

export const STATEMENT_FORMATS = [
  { name: bankAccount, title: bankAccountTitle },
  { name: zarinpal, title: zarinpalTitle },
  { name: zarinpalPayouts, title: zarinpalPayoutsTitle },
  { name: sandbox, title: sandboxTitle },
];

/** The sandbox bank's own settlement report, read by the run itself (server/modules/reconciliation/matching.ts). */
const OWN_REPORTS: Record<string, string> = { sandboxBank: 'گزارش تسویهٔ خود درگاه آزمایشی' };

/** The format's Persian title; an unknown name stays as stored. */
export function statementTitle(name: string): string {
  return STATEMENT_FORMATS.find((f) => f.name === name)?.title ?? OWN_REPORTS[name] ?? name;
}
