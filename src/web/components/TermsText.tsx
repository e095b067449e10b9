/** The terms and conditions themselves: the terms page shows them, and a desk before its first request. */
import { Flex } from '@radix-ui/themes';

export function TermsText() {
  return (
    <Flex direction="column" gap="2" asChild>
      <ol style={{ lineHeight: 2, paddingInlineStart: 24, margin: 0, listStyleType: 'persian' }}>
        <li>به کاربران زیر ۱۸ سال خدمات ارائه نمی‌شود.</li>
        <li>
          بازپرداخت وجه حداکثر ظرف سه روز کاری انجام می‌شود؛ به مبلغ بازپرداختی سود تعلق نمی‌گیرد و تبدیل ارز انجام
          نمی‌شود.
        </li>
        <li>اگر بازپرداخت به دلیل اشتباه کاربر باشد، کارمزد و مالیات آن کسر می‌شود.</li>
        <li>پرداخت با کارت بانکی شخص دیگر پذیرفته نمی‌شود و وجه فقط به همان کارت بازگردانده می‌شود.</li>
        <li>قیمت هر درخواست پیش از پرداخت اعلام می‌شود و تا پایان زمان اعتبار آن ثابت می‌ماند.</li>
      </ol>
    </Flex>
  );
}
