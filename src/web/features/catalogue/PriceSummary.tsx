import { Box, Flex, Heading, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';
import type { components } from '../../../generated/api';
import { formatRial } from '../../../shared/format';
import { rialInWords } from '../../../shared/format/persian-words';
import { Amount, TomanEquivalent } from '../../components/RialText';
import { mmss, useCountdown } from '../../lib/useCountdown';

export type Quote = components['schemas']['Quote'];

function Row({
  label,
  value,
  strong,
  testId,
  below,
}: {
  label: string;
  /** An amount: number then unit, or what stands for it. */
  value: ReactNode;
  strong?: boolean;
  testId?: string;
  /** Under the value: its toman equivalent and its words, on the lines the customer confirms. */
  below?: ReactNode;
}) {
  const shown = (
    <Text size={strong ? '3' : '2'} weight={strong ? 'bold' : 'regular'} data-testid={testId}>
      {value}
    </Text>
  );
  return (
    <div className="price-row">
      <Text size="2" weight={strong ? 'bold' : 'regular'}>
        {label}
      </Text>
      {below ? (
        <Flex direction="column" align="end" gap="1" className="price-row-value">
          {shown}
          {below}
        </Flex>
      ) : (
        shown
      )}
    </div>
  );
}

/** The toman equivalent (when the customer chose to see it) and, with `words`, the amount in Persian words. */
function AmountAside({ rial, words, testId }: { rial: number; words?: boolean; testId: string }) {
  return (
    <>
      <TomanEquivalent value={rial} testId={`${testId}-toman`} />
      {words && (
        <Text size="1" color="gray" data-testid={`${testId}-words`}>
          {rialInWords(rial)}
        </Text>
      )}
    </>
  );
}

/** The server's price: direct cost, costs with their parts, total, wallet and what remains to pay; the quote's time left. */
export function PriceSummary({ quote, expiresAt }: { quote: Quote; expiresAt: number }) {
  const left = useCountdown(expiresAt);
  return (
    <Box p="3" style={{ background: 'var(--accent-2)', borderRadius: 'var(--radius-4)' }} data-testid="price-summary">
      <Flex justify="between" align="center" mb="2">
        <Heading size="3">خلاصه قیمت</Heading>
        <Text size="2" color={left < 30_000 ? 'orange' : 'gray'}>
          اعتبار قیمت:{' '}
          <span className="ltr" data-testid="quote-countdown">
            {mmss(left)}
          </span>
        </Text>
      </Flex>
      <Row
        label="نرخ ارز"
        value={<Amount value={quote.rate} unit={`ریال / ${quote.currency.code}`} />}
        testId="quote-rate"
      />
      <Row label="مبلغ ارزی" value={<Amount value={quote.amount} unit={quote.currency.code} />} />
      <Row label="هزینه مستقیم" value={<Amount value={quote.grossPrice} />} testId="gross-price" />
      <Row label="کارمزد" value={<Amount value={quote.costs.fee} />} />
      <Row label="مالیات بر ارزش افزوده کارمزد" value={<Amount value={quote.costs.tax} />} />
      <Row label="هزینه عملیات" value={<Amount value={quote.costs.operationCost} />} />
      <Row label="جمع هزینه‌ها" value={<Amount value={quote.totalCosts} />} />
      <Row
        label="مبلغ کل"
        value={<Amount value={quote.expectedPrice} />}
        strong
        testId="expected-price"
        below={<AmountAside rial={quote.expectedPrice} words testId="expected-price" />}
      />
      {quote.walletBalance > 0 && (
        <Row
          label={`از کیف پول (موجودی ${formatRial(quote.walletBalance)})`}
          value={<Amount value={Math.min(quote.walletBalance, quote.expectedPrice)} />}
          testId="wallet-part"
        />
      )}
      <Row
        label="قابل پرداخت"
        value={<Amount value={quote.payablePrice} />}
        strong
        testId="payable-price"
        below={quote.payablePrice > 0 ? <AmountAside rial={quote.payablePrice} testId="payable-price" /> : undefined}
      />
    </Box>
  );
}

/**
 * The price in a bar held at the bottom of the screen while the form is filled: what remains to pay and the quote's
 * time left, visible without scrolling on a phone; the whole summary is below the form.
 */
export function PriceBar({ quote, expiresAt }: { quote: Quote; expiresAt: number }) {
  const left = useCountdown(expiresAt);
  return (
    <div className="price-bar" data-testid="price-bar" role="status" aria-live="off">
      <Flex direction="column">
        <Text size="1" color="gray">
          قابل پرداخت
        </Text>
        <Text size="3" weight="bold" data-testid="price-bar-payable">
          <Amount value={quote.payablePrice} />
        </Text>
        {quote.payablePrice > 0 && <TomanEquivalent value={quote.payablePrice} testId="price-bar-payable-toman" />}
      </Flex>
      <Flex direction="column" align="end">
        <Text size="1" color="gray">
          اعتبار قیمت
        </Text>
        <Text size="3" weight="bold" color={left < 30_000 ? 'orange' : undefined} data-testid="price-bar-countdown">
          {mmss(left)}
        </Text>
      </Flex>
    </div>
  );
}
