/** What deactivating an account means, in the words the confirmation shows. */
import { Flex, Strong, Text } from '@radix-ui/themes';
import { formatPhone } from '../../../../shared/format';
import type { UserSummary } from './queries';

export function DeactivationText({ user }: { user: UserSummary }) {
  return (
    <Flex direction="column" gap="2">
      <Text>
        حساب <Strong>«{user.name}»</Strong>
        {user.mobileNo && (
          <>
            {' '}
            با موبایل <span className="ltr">{formatPhone(user.mobileNo)}</span>
          </>
        )}{' '}
        غیرفعال شود؟
      </Text>
      <Text>او دیگر نمی‌تواند وارد شود و نشست‌های باز او همین حالا پایان می‌یابد.</Text>
      <Text color="gray">سوابق، درخواست‌ها و گروه‌های او حذف نمی‌شود و می‌توانید بعدا دوباره فعالش کنید.</Text>
    </Flex>
  );
}
