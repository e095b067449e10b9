/**
 * «برنامه من»: a student's payments abroad in order. A customer chooses a destination (a plan template) and a start
 * date; each step then shows its desk, its estimated cost in rial at today's rate with the breakdown (the server
 * prices it as the desk's quote does), its deadline, its state from the customer's own requests (refreshed live
 * when one changes) and a link that opens its desk with the form filled from the plan; the totals close the list.
 * A guest sees the destinations and their steps, and is asked to log in to make a plan of their own.
 */
import { Badge, Button, Callout, Card, Flex, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import planForm from '../../../../schemas/entryForms/myPlan.json';
import planFormValidators from '../../../generated/form-validators/myPlan';
import { toPersianDigits } from '../../../shared/format';
import { WithLatinNames } from '../../components/LatinNames';
import { DateText } from '../../components/date/DateText';
import { asEntryForm, EntryForm } from '../../components/form-engine/EntryForm';
import { RialText } from '../../components/RialText';
import { EmptyState } from '../../components/states/EmptyState';
import { LoadError } from '../../components/states/LoadError';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import {
  type MyPlan,
  type MyPlanStep,
  myPlanQuery,
  type PlanStepState,
  type PlanTemplate,
  planTemplatesQuery,
  saveMyPlan,
} from '../../lib/queries/plans';
import { pathOf } from '../../lib/routes';
import { loginDialogOpenAtom, userAtom } from '../../lib/session';

const form = asEntryForm(planForm, planFormValidators);

const STATES: Record<PlanStepState, { label: string; color: 'gray' | 'orange' | 'blue' | 'green' }> = {
  notStarted: { label: 'شروع نشده', color: 'gray' },
  waitingForPayment: { label: 'در انتظار پرداخت', color: 'orange' },
  paid: { label: 'پرداخت شده', color: 'blue' },
  done: { label: 'انجام شد', color: 'green' },
};

/** A fee in its foreign currency: 35000 minor USD → «۳۵۰ USD». */
const Fee = ({ fee }: { fee: { currency: string; amountMinor: number } }) => (
  <RialText value={fee.amountMinor / 100} unit={fee.currency} />
);

export default function MyPlanPage() {
  const user = useAtomValue(userAtom);
  const templates = useQuery(planTemplatesQuery);
  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 760, marginInline: 'auto', width: '100%' }}>
      <Heading size="6">برنامه من</Heading>
      <Text as="p" color="gray" size="2" style={{ lineHeight: 1.9 }}>
        هزینه‌های تحصیل در خارج، از درخواست پذیرش تا خوابگاه، به ترتیب و با مهلت هر کدام.
      </Text>
      {templates.isPending ? (
        <Skeleton height="200px" data-testid="plan-loading" />
      ) : templates.isError ? (
        <LoadError
          error={templates.error}
          fallback="دریافت برنامه‌ها ممکن نشد."
          onRetry={() => void templates.refetch()}
          retrying={templates.isFetching}
        />
      ) : user ? (
        <CustomerPlan templates={templates.data.items} />
      ) : (
        <GuestTemplates templates={templates.data.items} />
      )}
    </Flex>
  );
}

function GuestTemplates({ templates }: { templates: PlanTemplate[] }) {
  const openLogin = useSetAtom(loginDialogOpenAtom);
  return (
    <>
      <Callout.Root data-testid="plan-login-prompt">
        <Callout.Text>برای ساختن برنامهٔ خود، با هزینهٔ ریالی و وضعیت هر مرحله، وارد حساب کاربری شوید.</Callout.Text>
        <Button mt="2" onClick={() => openLogin(true)} style={{ justifySelf: 'start' }}>
          ورود
        </Button>
      </Callout.Root>
      {templates.map((template) => (
        <Card key={template.identifier} size="2" data-testid={`plan-template-${template.identifier}`}>
          <Flex direction="column" gap="2">
            <Heading as="h2" size="4">
              <WithLatinNames text={template.title} />
            </Heading>
            <Text size="2" color="gray">
              {template.description}
            </Text>
            <ol className="plan-steps">
              {template.steps.map((step) => (
                <li key={step.key}>
                  <Flex justify="between" gap="2" wrap="wrap">
                    <Text size="2">
                      <WithLatinNames text={step.title} />
                      {step.optional && <Text color="gray"> (در صورت نیاز)</Text>}
                    </Text>
                    <Fee fee={step.fee} />
                  </Flex>
                </li>
              ))}
            </ol>
          </Flex>
        </Card>
      ))}
    </>
  );
}

function CustomerPlan({ templates }: { templates: PlanTemplate[] }) {
  const plan = useQuery(myPlanQuery);
  if (plan.isPending) return <Skeleton height="320px" data-testid="plan-loading" />;
  if (plan.isError)
    return (
      <LoadError
        error={plan.error}
        fallback="دریافت برنامهٔ شما ممکن نشد."
        onRetry={() => void plan.refetch()}
        retrying={plan.isFetching}
      />
    );
  return (
    <>
      <PlanChoice templates={templates} plan={plan.data} />
      {plan.data ? (
        <PlanSteps plan={plan.data} />
      ) : (
        <Card size="2">
          <EmptyState title="هنوز برنامه‌ای نساخته‌اید" testId="plan-empty">
            مقصد و تاریخ شروع تحصیل را انتخاب کنید تا مراحل پرداخت، هزینهٔ تقریبی هر کدام و مهلت‌ها اینجا بیاید.
          </EmptyState>
        </Card>
      )}
    </>
  );
}

function PlanChoice({ templates, plan }: { templates: PlanTemplate[]; plan: MyPlan | null }) {
  const queryClient = useQueryClient();
  const [data, setData] = useState<Record<string, unknown>>(() =>
    plan ? { plan: plan.template.identifier, startDate: plan.startDate } : {},
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (values: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const fresh = await saveMyPlan({ plan: String(values.plan), startDate: String(values.startDate) });
      queryClient.setQueryData(myPlanQuery.queryKey, fresh);
      setSaved(true);
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="2" data-testid="plan-choice">
      <EntryForm
        form={form}
        idPrefix="myPlan"
        formData={data}
        onChange={(d) => {
          setData(d);
          setSaved(false);
        }}
        onSubmit={(values) => void submit(values)}
        formContext={{
          choices: { plans: templates.map((t) => ({ id: t.identifier, title: t.title })) },
        }}
      >
        <Flex direction="column" gap="2" mt="3">
          {error && (
            <Callout.Root color="red" role="alert" data-testid="plan-save-error">
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          )}
          {saved && (
            <Text size="2" color="green" role="status">
              برنامهٔ شما ذخیره شد.
            </Text>
          )}
          <Button type="submit" size="3" loading={busy} data-testid="save-plan">
            {plan ? 'به‌روزرسانی برنامه' : 'ساختن برنامه'}
          </Button>
        </Flex>
      </EntryForm>
    </Card>
  );
}

function PlanSteps({ plan }: { plan: MyPlan }) {
  return (
    <Flex direction="column" gap="3" data-testid="plan-steps">
      <Flex direction="column" gap="1">
        <Heading as="h2" size="4">
          <WithLatinNames text={plan.template.title} />
        </Heading>
        <Text size="2" color="gray">
          شروع تحصیل: <DateText value={plan.startDate} format="longDate" />
        </Text>
      </Flex>
      <ol className="plan-step-list">
        {plan.steps.map((step) => (
          <li key={step.key}>
            <StepCard step={step} />
          </li>
        ))}
      </ol>
      <Card size="2" data-testid="plan-totals">
        <Flex direction="column" gap="2">
          <Flex justify="between" gap="2" wrap="wrap">
            <Text weight="bold">جمع هزینهٔ تقریبی</Text>
            <RialText value={plan.totalEstimated} testId="plan-total-estimated" toman />
          </Flex>
          <Flex justify="between" gap="2" wrap="wrap">
            <Text weight="bold">پرداخت‌شده تا امروز</Text>
            <RialText value={plan.totalPaid} testId="plan-total-paid" toman />
          </Flex>
          <Text size="1" color="gray">
            برآورد با نرخ امروز است؛ مراحلی که «در صورت نیاز» هستند در جمع نیامده‌اند.
          </Text>
        </Flex>
      </Card>
    </Flex>
  );
}

function StepCard({ step }: { step: MyPlanStep }) {
  const state = STATES[step.state];
  const deskLink = (desk: string) => `/desks/${encodeURIComponent(desk)}?planStep=${encodeURIComponent(step.key)}`;
  return (
    <Card size="2" data-testid={`plan-step-${step.key}`} data-state={step.state}>
      <Flex direction="column" gap="2">
        <Flex justify="between" align="start" gap="2">
          <Heading as="h3" size="3">
            {toPersianDigits(String(step.order))}. <WithLatinNames text={step.title} />
          </Heading>
          <Badge color={state.color} size="2" data-testid="plan-step-state">
            {state.label}
          </Badge>
        </Flex>
        <Text size="2" color="gray">
          {step.deskTitle}
          {step.optional && ' · در صورت نیاز'}
        </Text>
        <dl className="plan-step-facts">
          <div>
            <dt>هزینهٔ معمول</dt>
            <dd>
              <Fee fee={step.fee} />
            </dd>
          </div>
          {step.estimate ? (
            <>
              <div>
                <dt>برآورد به ریال</dt>
                <dd>
                  <RialText value={step.estimate.expectedPrice} testId="plan-step-estimate" />
                </dd>
              </div>
              <div>
                <dt>مبلغ ارزی به ریال</dt>
                <dd>
                  <RialText value={step.estimate.grossPrice} />
                </dd>
              </div>
              <div>
                <dt>کارمزد و هزینه‌ها</dt>
                <dd>
                  <RialText value={step.estimate.totalCosts} />
                </dd>
              </div>
            </>
          ) : (
            <div>
              <dt>برآورد به ریال</dt>
              <dd>نرخ این ارز فعلاً اعلام نشده است.</dd>
            </div>
          )}
          {step.deadline && (
            <div>
              <dt>مهلت</dt>
              <dd>
                <DateText value={step.deadline} format="slashDate" />
              </dd>
            </div>
          )}
          {step.paid > 0 && (
            <div>
              <dt>پرداخت‌شده</dt>
              <dd>
                <RialText value={step.paid} />
              </dd>
            </div>
          )}
        </dl>
        {step.note && (
          <Text size="2" color="gray">
            {step.note}
          </Text>
        )}
        <Flex gap="2" wrap="wrap">
          {step.available ? (
            <Button asChild size="2" variant={step.state === 'notStarted' ? 'solid' : 'soft'}>
              <Link to={deskLink(step.desk)} data-testid="plan-step-open">
                {step.state === 'notStarted' ? 'پرداخت این مرحله' : 'درخواست دیگر در این میز'}
              </Link>
            </Button>
          ) : (
            <Text size="2" color="orange">
              این خدمت فعلاً در دست راه‌اندازی است.
            </Text>
          )}
          {step.otherDesks.map((other) => (
            <Button key={other.desk} asChild size="2" variant="soft">
              <Link to={deskLink(other.desk)}>
                یا <WithLatinNames text={other.title} />
              </Link>
            </Button>
          ))}
          {step.purchaseId && (
            <Button asChild size="2" variant="ghost">
              <Link to={`${pathOf('myRequests')}?purchase=${step.purchaseId}`} data-testid="plan-step-request">
                دیدن درخواست
              </Link>
            </Button>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
