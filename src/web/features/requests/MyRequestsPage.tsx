import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import myRequestsTable from '../../../../schemas/tables/myRequests.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { loginDialogOpenAtom, userAtom } from '../../lib/session';

/** The customer's requests with their states and colours; refreshed live when one changes. */
export default function MyRequestsPage() {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  if (!user) {
    return (
      <Card size="3">
        <Flex direction="column" gap="3" align="start">
          <Text>کاربری در سیستم وارد نشده است.</Text>
          <Button onClick={() => openLogin(true)}>ورود</Button>
        </Flex>
      </Card>
    );
  }
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">درخواست‌های من</Heading>
      <Card size="2">
        <DataTable def={asTableDef(myRequestsTable)} />
      </Card>
    </Flex>
  );
}
