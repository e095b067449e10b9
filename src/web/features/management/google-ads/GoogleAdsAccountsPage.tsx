/**
 * Customers' Google Ads accounts for staff (manageGoogleAds) on the data-table engine
 * (schemas/tables/googleAdsAccounts.json): rows red until the customer accepted the ownership, green after; search,
 * export; «تعلیق» / «فعال‌سازی» (a suspended account cannot be charged) and «تایید مالکیت». Accounts are made from
 * the customer's request in the task queue.
 */
import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useState } from 'react';
import accountsTable from '../../../../../schemas/tables/googleAdsAccounts.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { showSnackbar } from '../../../components/shell/snackbar';
import { digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { decorateGoogleAdsRows, saveGoogleAdsAccount } from '../../../lib/queries/google-ads';

const def = asTableDef(accountsTable);

export default function GoogleAdsAccountsPage() {
  const [refreshKey, setRefreshKey] = useState(0);
  const save = async (body: Parameters<typeof saveGoogleAdsAccount>[0]) => {
    try {
      showSnackbar(await saveGoogleAdsAccount(body), 'green');
      setRefreshKey((k) => k + 1);
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    }
  };
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">حساب‌های تبلیغاتی</Heading>
      <Card size="2">
        <DataTable
          def={def}
          decorate={decorateGoogleAdsRows}
          stackOnMobile
          refreshKey={refreshKey}
          actions={(row) => {
            const id = Number(row.id);
            const active = row.status === 'active';
            return (
              <Flex gap="2" wrap="wrap">
                <Button
                  size="1"
                  variant="soft"
                  color={active ? 'red' : 'green'}
                  onClick={() => void save({ id, status: active ? 'suspended' : 'active' })}
                  data-testid={`gads-status-${id}`}
                >
                  {active ? 'تعلیق' : 'فعال‌سازی'}
                </Button>
                {row.ownershipApproved !== 1 && (
                  <Button
                    size="1"
                    variant="soft"
                    onClick={() => void save({ id, ownershipApproved: 1 })}
                    data-testid={`gads-ownership-${id}`}
                  >
                    تایید مالکیت
                  </Button>
                )}
              </Flex>
            );
          }}
        />
      </Card>
    </Flex>
  );
}
