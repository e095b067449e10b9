import { CheckIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { showError, showSnackbar } from '../../components/shell/snackbar';
import { TermsText } from '../../components/TermsText';
import { api } from '../../lib/api-client';
import { POLICY_OPERATIONS, type PolicyCategory } from '../../lib/policy-approval';
import { catalogueAtom } from '../../lib/queries/catalogue';
import { loadUser, userAtom } from '../../lib/session';

/** Terms and conditions; a signed-in user accepts them per product category (button disabled once approved). */
export default function TermsPage() {
  const user = useAtomValue(userAtom);
  const catalogue = useAtomValue(catalogueAtom).data;
  const [busy, setBusy] = useState<string | null>(null);

  const approve = async (key: PolicyCategory) => {
    setBusy(key);
    try {
      await api.POST(POLICY_OPERATIONS[key]);
      await loadUser();
      showSnackbar('قوانین و مقررات پذیرفته شد.', 'green');
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card size="3">
      <Heading size="5" mb="3">
        قوانین و مقررات
      </Heading>
      <TermsText />
      {user ? (
        <Flex direction="column" gap="2" mt="4">
          <Text weight="medium">پذیرش قوانین برای هر گروه خدمت:</Text>
          {(catalogue?.categories ?? []).map((category) => {
            const key = category.key as PolicyCategory;
            const approved = Boolean(user[`${key}PolicyApproved` as const]);
            return (
              <Flex key={key} align="center" justify="between" gap="2" wrap="wrap">
                <Text>{category.menuTitle}</Text>
                <Button
                  onClick={() => void approve(key)}
                  disabled={approved}
                  loading={busy === key}
                  variant={approved ? 'soft' : 'solid'}
                  data-testid={`approve-${key}`}
                >
                  {approved ? (
                    <>
                      <CheckIcon /> پذیرفته شد
                    </>
                  ) : (
                    'می‌پذیرم'
                  )}
                </Button>
              </Flex>
            );
          })}
        </Flex>
      ) : (
        <Text as="p" color="gray" mt="4">
          برای پذیرش قوانین و ثبت درخواست، ابتدا وارد شوید.
        </Text>
      )}
    </Card>
  );
}
