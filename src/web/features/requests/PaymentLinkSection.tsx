/**
 * «پرداخت توسط دیگری» on a request waiting for payment (decision 028): make a link someone else pays the request
 * through (a parent, say), copy or share it, see until when it holds, revoke it. The link's address is shown only
 * right after it is made (the server keeps only its hash); making a new one revokes the old.
 */
import { Box, Button, Callout, Code, Flex, Heading, SegmentedControl, Text } from '@radix-ui/themes';
import { useState } from 'react';
import type { components } from '../../../generated/api';
import { DateText } from '../../components/date/DateText';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { type CreatedPaymentLink, createPaymentLink, revokePaymentLink } from '../../lib/payment-links';

type OwnPaymentLink = components['schemas']['OwnPaymentLink'];

/** How long a new link holds, as the requester chooses it; the server allows up to a week. */
const LIFETIMES = [
  { hours: '24', label: '۱ روز' },
  { hours: '72', label: '۳ روز' },
  { hours: '168', label: '۷ روز' },
] as const;

export function PaymentLinkSection({ purchaseId, link }: { purchaseId: number; link: OwnPaymentLink | null }) {
  const [created, setCreated] = useState<CreatedPaymentLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [hours, setHours] = useState<string>('72');
  const live = link !== null && !link.revoked && !link.expired && link.paidAt === null;
  const url = created ? `${window.location.origin}${created.path}` : null;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setNotice('متن کپی شد.');
    } catch {
      setNotice('کپی خودکار ممکن نیست؛ نشانی را خودتان انتخاب و کپی کنید.');
    }
  };

  const share = async () => {
    if (!url) return;
    try {
      await navigator.share({
        title: 'پرداخت درخواست در ارزپی',
        text: 'لطفاً این درخواست را برای من پرداخت کنید:',
        url,
      });
    } catch {
      // Closed without sharing: nothing to say.
    }
  };

  return (
    <Box
      p="3"
      style={{ border: '1px solid var(--gray-6)', borderRadius: 'var(--radius-4)' }}
      data-testid="payment-link-section"
    >
      <Flex direction="column" gap="2">
        <Heading size="3" as="h3">
          پرداخت توسط دیگری
        </Heading>
        <Text size="2" color="gray">
          پیوندی بسازید و برای کسی که می‌خواهد این درخواست را برایتان پرداخت کند (مثلاً پدر یا مادرتان) بفرستید. او با
          موبایل خودش وارد می‌شود و از کیف پول یا کارت بانکی به نام خودش پرداخت می‌کند؛ اطلاعات فرم درخواست را نمی‌بیند
          و اگر مبلغی برگردد، به کیف پول او برمی‌گردد.
        </Text>
        {error && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {url && created && (
          <Flex direction="column" gap="2" data-testid="payment-link-created">
            <Text size="2" weight="bold">
              پیوند پرداخت ساخته شد. این نشانی فقط همین حالا نمایش داده می‌شود:
            </Text>
            <Code
              dir="ltr"
              size="2"
              style={{ wordBreak: 'break-all', userSelect: 'all' }}
              data-testid="payment-link-url"
            >
              {url}
            </Code>
            <Flex gap="2" wrap="wrap">
              <Button size="2" onClick={() => void copy()} data-testid="payment-link-copy">
                کپی پیوند
              </Button>
              {typeof navigator.share === 'function' && (
                <Button size="2" variant="soft" onClick={() => void share()}>
                  فرستادن…
                </Button>
              )}
            </Flex>
          </Flex>
        )}
        {notice && (
          <Text size="2" color="green" role="status">
            {notice}
          </Text>
        )}
        {live && (
          <Text size="2" data-testid="payment-link-expiry">
            پیوند فعال است تا <DateText value={link.expiresAt} />
          </Text>
        )}
        {link && !live && link.paidAt === null && (
          <Text size="2" color="gray">
            {link.revoked ? 'پیوند پیشین باطل شده است.' : 'مهلت پیوند پیشین به پایان رسیده است.'}
          </Text>
        )}
        <Flex gap="2" align="center" wrap="wrap">
          <Text size="2" id="payment-link-lifetime-label">
            اعتبار پیوند تازه
          </Text>
          <SegmentedControl.Root
            size="1"
            value={hours}
            onValueChange={setHours}
            aria-labelledby="payment-link-lifetime-label"
            data-testid="payment-link-lifetime"
          >
            {LIFETIMES.map((l) => (
              <SegmentedControl.Item key={l.hours} value={l.hours}>
                {l.label}
              </SegmentedControl.Item>
            ))}
          </SegmentedControl.Root>
        </Flex>
        <Flex gap="2" wrap="wrap">
          <Button
            size="2"
            variant={live ? 'soft' : 'solid'}
            loading={busy}
            onClick={() => void run(async () => setCreated(await createPaymentLink(purchaseId, Number(hours))))}
            data-testid="payment-link-create"
          >
            {live ? 'ساخت پیوند تازه' : 'ساخت پیوند پرداخت'}
          </Button>
          {live && (
            <Button
              size="2"
              variant="soft"
              color="red"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await revokePaymentLink(purchaseId);
                  setCreated(null);
                  setNotice('پیوند پرداخت باطل شد.');
                })
              }
              data-testid="payment-link-revoke"
            >
              باطل کردن پیوند
            </Button>
          )}
        </Flex>
      </Flex>
    </Box>
  );
}
