/**
 * The statement formats staff can upload (schemas/reconciliation/statements), with the Persian title a person reads
 * wherever a format's name («bankAccount») would otherwise show: the upload's list and a bank line's evidence.
 */
import bankAccount from '../../../../../schemas/reconciliation/statements/bankAccount.json';
import sandbox from '../../../../../schemas/reconciliation/statements/sandbox.json';
import zarinpal from '../../../../../schemas/reconciliation/statements/zarinpal.json';
import zarinpalPayouts from '../../../../../schemas/reconciliation/statements/zarinpalPayouts.json';

export const STATEMENT_FORMATS = [bankAccount, zarinpal, zarinpalPayouts, sandbox].map((m) => ({
  name: m.name,
  title: m.title,
}));

/** The sandbox bank's own settlement report, read by the run itself (server/modules/reconciliation/matching.ts). */
const OWN_REPORTS: Record<string, string> = { sandboxBank: 'گزارش تسویهٔ خود درگاه آزمایشی' };

/** The format's Persian title; an unknown name stays as stored. */
export function statementTitle(name: string): string {
  return STATEMENT_FORMATS.find((f) => f.name === name)?.title ?? OWN_REPORTS[name] ?? name;
}
