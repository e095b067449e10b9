/** Every choice production (ARZPAY_ENV=production, decision 023) demands, with fake but well-formed values. */
export const PRODUCTION = {
  ARZPAY_ENV: 'production',
  PAYMENT_GATEWAY: 'zarinpal',
  ZARINPAL_MERCHANT_ID: '1a2b3c4d-0000-4000-8000-123456789abc',
  SMS_DRIVER: 'kavenegar',
  KAVENEGAR_API_KEY: 'fake-kavenegar-key',
  KAVENEGAR_TEMPLATE: 'arzpay-code',
  PUBLIC_URL: 'https://arzpay.example',
  TRUST_PROXY: '127.0.0.1',
  FIELD_ENCRYPTION_KEY: 'cd'.repeat(32),
  METRICS_TOKEN: 'ef'.repeat(24),
};

/** PRODUCTION without one of its settings. */
export function without(name: keyof typeof PRODUCTION): Record<string, string> {
  const env: Record<string, string> = { ...PRODUCTION };
  delete env[name];
  return env;
}
