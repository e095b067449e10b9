/**
 * Failed notification SMS, /management/failed-sms (README, «Notifications»): the SMS the worker gave up on after its last try
 * (api/sys/searchFailedNotificationSms), newest first, with the number, the tries and the provider's last error, so
 * staff can reach the customer another way or fix the provider's account.
 */
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import failedSmsTable from '../../../../../schemas/tables/failedNotificationSms.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';

const TABLE = asTableDef(failedSmsTable);

export default function FailedSmsPage() {
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <Text size="2" color="gray">
        پیامک‌های اعلانی که پس از چند بار تلاش به دست سرویس پیامک نرسیدند. اعلان درون برنامه برای مشتری ثبت شده است؛ در
        صورت لزوم از راه دیگری با او تماس بگیرید.
      </Text>
      <Card size="2">
        <DataTable def={TABLE} stackOnMobile />
      </Card>
    </Flex>
  );
}
