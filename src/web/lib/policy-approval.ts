/** The terms-approval operation of each product category (api/me/approve{product}Policy). */
export const POLICY_OPERATIONS = {
  educational: '/api/me/approveEducationalPolicy',
  internationalExams: '/api/me/approveInternationalExamsPolicy',
  embassies: '/api/me/approveEmbassiesPolicy',
  googleAds: '/api/me/approveGoogleAdsPolicy',
  others: '/api/me/approveOthersPolicy',
} as const;

export type PolicyCategory = keyof typeof POLICY_OPERATIONS;
