import { Button, Callout, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useAtomValue, useSetAtom } from 'jotai';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { LoadError } from '../../components/states/LoadError';
import { useHydrated } from '../../lib/hydrated';
import { nextTask } from '../../lib/idle';
import { api, call } from '../../lib/api-client';
import { catalogueAtom } from '../../lib/queries/catalogue';
import { myPlanQuery, planStepFor } from '../../lib/queries/plans';
import { pathOf } from '../../lib/routes';
import { useDeskFunnel } from './useDeskFunnel';

// The form engine and the pay step are drawn after hydration only (the prerendered page is the title, picture and
// description), so they are not part of the page's first load: they load beside hydration, and the skeleton stands in.
// Its modules run in two tasks rather than one long one (some 300 ms on a slow phone): the date input's (calendar,
// popover) first, then the form engine with the page's form. An import's modules run together, in one task.
let deskFormModule: Promise<typeof import('./DeskForm')> | undefined;
const loadDeskForm = () =>
  (deskFormModule ??= import('../../components/date/JalaliDateInput')
    .then(nextTask)
    .then(() => import('./DeskForm'))
    .catch((error: unknown) => {
      // Tried again on the next use (offline for a moment).
      deskFormModule = undefined;
      throw error;
    }));
const DeskForm = lazy(() => loadDeskForm().then((m) => ({ default: m.DeskForm })));
const PayStep = lazy(() => import('./PayStep').then((m) => ({ default: m.PayStep })));
const FormSkeleton = () => <Skeleton height="320px" data-testid="desk-form-loading" />;
import { loginDialogOpenAtom, storedTokenAtom, userAtom } from '../../lib/session';

/**
 * A desk from the catalogue with its form; a desk the catalogue marks as not yet open shows as such. Once the
 * request is made (`?purchase=<id>`), the pay step takes the form's place. Opened from the customer's plan
 * (`?planStep=<key>`), the form starts with that step's values as the server's plan gives them (currency, amount,
 * its text), never with values from the address itself.
 */
export default function DeskPage() {
  const { desk: identifier } = useParams();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const submitted = Number(params.get('purchase')) || null;
  const planStepKey = params.get('planStep');
  const user = useAtomValue(userAtom);
  const plan = useQuery({ ...myPlanQuery, enabled: Boolean(planStepKey && user) });
  const planStep = planStepFor(plan.data, planStepKey, identifier ?? '');
  const waitingForPlan = Boolean(planStepKey && user) && plan.isPending;
  const { data, isPending, isError, error, refetch, isFetching } = useAtomValue(catalogueAtom);
  // The form is drawn in the browser only, after the prerendered page (title, description) is hydrated.
  const hydrated = useHydrated();
  useEffect(() => void loadDeskForm().catch(() => undefined), []);
  // Where customers give up (decision 046): a visit while this desk's form is shown; the counting loads lazily.
  const funnelDesk = data?.desks.find((d) => d.identifier === identifier);
  useDeskFunnel(
    funnelDesk,
    data?.forms.find((f) => f.formType === funnelDesk?.formType),
    hydrated && !waitingForPlan && !pathname.startsWith('/under-construction-desks/'),
    Boolean(submitted),
  );
  if (isPending) return <Skeleton height="240px" />;
  // A failed catalogue load is not an unknown desk: offer a retry instead of the error page.
  if (isError) {
    return (
      <LoadError
        error={error}
        fallback="دریافت اطلاعات این خدمت ممکن نشد."
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  const desk = data?.desks.find((d) => d.identifier === identifier);
  if (!desk) return <Navigate to="/errors" replace />;
  const form = data?.forms.find((f) => f.formType === desk.formType);
  const closed = desk.underConstruction || pathname.startsWith('/under-construction-desks/');
  return (
    <Card size="3" data-testid="desk-page" style={{ maxWidth: 760, marginInline: 'auto' }}>
      <Flex direction="column" gap="4">
        <Flex gap="3" align="center">
          <img src={desk.img} alt="" width={48} height={48} />
          <Flex direction="column">
            <Heading size="5">{desk.title}</Heading>
            <Text size="2" color="gray" className="ltr">
              {desk.subTitle}
            </Text>
          </Flex>
        </Flex>
        <Text as="p" style={{ lineHeight: 1.9 }}>
          {desk.description}
        </Text>
        {desk.promise && !closed && <PromiseRecord desk={desk.identifier} />}
        {!closed && form && !submitted && <GuestLoginNote />}
        {planStep && !submitted && (
          <Callout.Root color="blue" size="1" data-testid="plan-prefill-note">
            <Callout.Text>
              از <Link to={pathOf('myPlan')}>برنامهٔ من</Link>: «{planStep.title}». مبلغ و ارز از برنامه پر شد؛ اگر مبلغ
              دیگری خواسته‌اند تغییرش دهید.
            </Callout.Text>
          </Callout.Root>
        )}
        {closed || !form ? (
          <Callout.Root color="orange" data-testid="desk-closed">
            <Callout.Text>این خدمت در دست راه‌اندازی است و به‌زودی می‌توانید درخواست آن را ثبت کنید.</Callout.Text>
          </Callout.Root>
        ) : submitted ? (
          <Suspense fallback={<FormSkeleton />}>
            <PayStep purchaseId={submitted} />
          </Suspense>
        ) : hydrated && !waitingForPlan ? (
          <Suspense fallback={<FormSkeleton />}>
            <DeskForm
              desk={desk}
              form={form}
              prefill={planStep?.prefill}
              onStepReached={(index) =>
                void import('./funnel').then((m) => m.funnelStepReached(desk.identifier, index))
              }
            />
          </Suspense>
        ) : (
          <FormSkeleton />
        )}
      </Flex>
    </Card>
  );
}

/**
 * The desk's promises kept, from the server's counts (decision 041): «۲ از ۳ درخواست آخر پیش از موعد انجام شد».
 * Nothing while it loads, fails, or the desk has no settled promise yet.
 */
function PromiseRecord({ desk }: { desk: string }) {
  const { data } = useQuery({
    queryKey: ['public', 'promiseRecord', desk],
    queryFn: () =>
      call<{ record: { text: string } | null }>(
        api.POST('/api/public/desks/{desk}/fetchPromiseRecord', { params: { path: { desk } } }),
      ),
    staleTime: 60_000,
  });
  return data?.record ? (
    <Text size="2" weight="medium" data-testid="desk-promise-record">
      {data.record.text}
    </Text>
  ) : null;
}

/**
 * A guest is asked to log in above the form, in the prerendered page itself: it is the first thing a guest can act
 * on, and it is there before the form engine has loaded. Someone with a stored token is not a guest while their
 * user is still loading.
 */
function GuestLoginNote() {
  const user = useAtomValue(userAtom);
  const storedToken = useAtomValue(storedTokenAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  if (user || storedToken) return null;
  return (
    <Callout.Root data-testid="guest-login-note">
      <Callout.Text>برای دیدن قیمت و ثبت درخواست، وارد حساب کاربری خود شوید.</Callout.Text>
      <Button mt="2" onClick={() => openLogin(true)} style={{ justifySelf: 'start' }}>
        ورود
      </Button>
    </Callout.Root>
  );
}
