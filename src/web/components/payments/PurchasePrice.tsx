/**
 * A submitted request's price: the currency amount and rate, direct cost, costs, the total, the part the wallet
 * pays and the part left to pay online; while it waits for payment, how long its price still holds.
 */
import { Box, Flex, Heading, Text } from '@radix-ui/themes';
import type { components } from '../../../generated/api';
import type { ReactNode } from 'react';
import { mmss, useCountdown } from '../../lib/useCountdown';
import { Amount } from '../RialText';

type Purchase = components['schemas']['Purchase'];

function Row({ label, value, strong, testId }: { label: string; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className="price-row">
      <Text size="2" weight={strong ? 'bold' : 'regular'}>
        {label}
      </Text>
      <Text size={strong ? '3' : '2'} weight={strong ? 'bold' : 'regular'} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

function QuoteCountdown({ expiresAt }: { expiresAt: string }) {
  const left = useCountdown(Date.parse(expiresAt));
  return (
    <Text size="2" color={left < 30_000 ? 'orange' : 'gray'} data-testid="purchase-quote-left">
      {left > 0 ? (
        <>
          اعتبار قیمت: <span className="ltr">{mmss(left)}</span>
        </>
      ) : (
        'اعتبار قیمت تمام شده؛ با پرداخت، قیمت تازه را می‌بینید.'
      )}
    </Text>
  );
}

export function PurchasePrice({ purchase, waiting }: { purchase: Purchase; waiting: boolean }) {
  return (
    <Box p="3" style={{ background: 'var(--accent-2)', borderRadius: 'var(--radius-4)' }} data-testid="purchase-price">
      <Flex justify="between" align="center" mb="2" gap="2" wrap="wrap">
        <Heading size="3">خلاصه قیمت</Heading>
        {waiting && <QuoteCountdown expiresAt={purchase.quoteExpiresAt} />}
      </Flex>
      <Row label="مبلغ ارزی" value={<Amount value={purchase.amount} unit={purchase.currencyCode} />} />
      <Row label="نرخ ارز" value={<Amount value={purchase.rate} unit={`ریال / ${purchase.currencyCode}`} />} />
      <Row label="هزینه مستقیم" value={<Amount value={purchase.grossPrice} />} />
      <Row label="جمع هزینه‌ها" value={<Amount value={purchase.totalCosts} />} />
      <Row label="مبلغ کل" value={<Amount value={purchase.expectedPrice} />} strong testId="purchase-expected-price" />
      <Row
        label={waiting ? 'از کیف پول' : 'پرداخت از کیف پول'}
        value={<Amount value={purchase.walletAmount} />}
        testId="purchase-wallet-amount"
      />
      <Row
        label={waiting ? 'قابل پرداخت آنلاین' : 'پرداخت آنلاین'}
        value={<Amount value={purchase.payablePrice} />}
        strong
        testId="purchase-payable-price"
      />
    </Box>
  );
}
