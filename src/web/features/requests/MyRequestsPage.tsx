import { Card, Flex, Heading } from '@radix-ui/themes';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { useAtomValue } from 'jotai';
import myRequestsTable from '../../../../schemas/tables/myRequests.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { userAtom } from '../../lib/session';

/** The customer's requests with their states and colours; refreshed live when one changes. */
export default function MyRequestsPage() {
  const user = useAtomValue(userAtom);
  if (!user) return <SignInPrompt />;
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">درخواست‌های من</Heading>
      <Card size="2">
        <DataTable def={asTableDef(myRequestsTable)} />
      </Card>
    </Flex>
  );
}
