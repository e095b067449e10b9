/** The canonical form of a bank's tracking code lives in src/shared/tracking-code.ts (the reconciliation uses it too). */
export { canonicalTrackingCode } from '../../../shared/tracking-code';
