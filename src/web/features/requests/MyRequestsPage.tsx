/**
 * The customer's requests with their states and colours, refreshed live when one changes. A request opens above
 * the list (`?purchase=<id>`) with its price, pay and cancel while it waits for payment, its state history and its
 * online payments; coming back from the bank (`&payment=<outcome>`) says in Persian what happened.
 */
import { Box, Button, Callout, Card, Flex, Heading, Skeleton } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import myRequestsTable from '../../../../schemas/tables/myRequests.json';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { EmptyState } from '../../components/states/EmptyState';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { whenIdle } from '../../lib/idle';
import { purchaseDetailQuery } from '../../lib/queries/purchases';
import { userAtom } from '../../lib/session';
import { CancelPurchaseButton } from './CancelPurchaseButton';
import { isPaymentOutcome, PAYMENT_OUTCOMES } from './payment-outcomes';

const def = asTableDef(myRequestsTable);
// The opened request (its payment, conversation, receipts, proof) is most of this page's code and none of the list's:
// it loads when a request is opened, or once the list is on screen and the page is idle, so «پرداخت» opens at once.
const loadRequestDetail = () => import('./RequestDetail');
const RequestDetail = lazy(() => loadRequestDetail().then((m) => ({ default: m.RequestDetail })));

/** While the opened request's code arrives: its frame, as the detail itself shows while its data arrives. */
function RequestDetailLoading() {
  return (
    <Card size="2" aria-busy="true">
      <Skeleton height="200px" />
    </Card>
  );
}

// The customer's unfinished forms (server drafts): a small chunk of its own, so the page's first load does not grow.
const DeskDraftsList = lazy(() => import('./DeskDraftsList'));

export default function MyRequestsPage() {
  const user = useAtomValue(userAtom);
  const [params, setParams] = useSearchParams();
  const opened = Number(params.get('purchase')) || null;
  const outcome = params.get('payment');
  const top = useRef<HTMLDivElement>(null);

  const open = (purchase: number | null) =>
    setParams(purchase ? { purchase: String(purchase) } : {}, { replace: false });
  const dismissOutcome = () => setParams(opened ? { purchase: String(opened) } : {}, { replace: true });

  useEffect(() => whenIdle(() => void loadRequestDetail()), []);
  // An address that opens a request: its data is asked for beside the detail's code, not after it.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (opened && user) void queryClient.prefetchQuery(purchaseDetailQuery(opened));
  }, [opened, user, queryClient]);

  // A request opened from the list comes into view at the top of the page.
  useEffect(() => {
    if (opened) top.current?.scrollIntoView({ block: 'start' });
  }, [opened]);

  if (!user) return <SignInPrompt title="درخواست‌های من" />;
  const message = isPaymentOutcome(outcome) ? PAYMENT_OUTCOMES[outcome] : null;
  return (
    <Flex direction="column" gap="3" ref={top}>
      <Heading size="6">درخواست‌های من</Heading>
      {message && (
        <Callout.Root
          color={message.color}
          role={message.color === 'red' ? 'alert' : 'status'}
          data-testid="payment-outcome"
          data-outcome={outcome}
        >
          <Callout.Text>
            <strong>{message.title}</strong> {message.text}
          </Callout.Text>
          <Box>
            <Button size="1" variant="soft" color={message.color} onClick={dismissOutcome}>
              بستن پیام
            </Button>
          </Box>
        </Callout.Root>
      )}
      {opened && (
        <Suspense fallback={<RequestDetailLoading />}>
          <RequestDetail key={opened} purchaseId={opened} onClose={() => open(null)} />
        </Suspense>
      )}
      <Card size="2">
        <DataTable
          def={def}
          stackOnMobile
          empty={
            <EmptyState
              title="هنوز درخواستی ثبت نکرده‌اید"
              testId="my-requests-empty"
              action={
                <Button asChild>
                  <Link to="/">دیدن خدمات و ثبت درخواست</Link>
                </Button>
              }
            >
              هر پرداختی که برایتان انجام می‌دهیم (شهریه، هزینهٔ آزمون، سفارت یا شارژ گوگل ادز) پس از ثبت، با قیمت، وضعیت
              و رسیدهایش اینجا دیده می‌شود.
            </EmptyState>
          }
          actions={(row) => {
            const id = Number(row.id);
            const waiting = row.state === 'waitingForPayment';
            return (
              <Flex gap="2" wrap="wrap">
                <Button
                  size="1"
                  variant={waiting ? 'solid' : 'soft'}
                  onClick={() => open(id)}
                  data-testid={waiting ? 'row-pay' : 'row-detail'}
                >
                  {waiting ? 'پرداخت' : 'جزئیات'}
                </Button>
                {waiting && <CancelPurchaseButton purchaseId={id} size="1" />}
              </Flex>
            );
          }}
        />
      </Card>
      {/* Below the list: arriving after it, the drafts never move a row or an open filter. */}
      <Suspense fallback={null}>
        <DeskDraftsList />
      </Suspense>
    </Flex>
  );
}
