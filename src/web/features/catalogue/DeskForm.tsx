/**
 * A desk's form, rendered by the form engine from the catalogue; the server prices it (quote with a
 * countdown, re-quoted when it runs out or a rate changes) and the customer confirms the price they saw.
 */

import { Button, Callout, Checkbox, Flex, Text } from '@radix-ui/themes';
import type Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { effectiveForm } from '../../../shared/catalogue';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { loadUser, loginDialogOpenAtom, userAtom } from '../auth/session';
import { RadixForm } from '../form-engine/theme';
import { persianTranslator } from '../form-engine/translator';
import { formValidator, persianErrors } from '../form-engine/validator';
import { showSnackbar } from '../shell/snackbar';
import { POLICY_OPERATIONS } from '../terms/policies';
import { TermsText } from '../terms/TermsPage';
import type { Desk, FormType } from './catalogue-query';
import { PriceSummary, type Quote } from './PriceSummary';

type FormData = Record<string, unknown>;

function priceInputsReady(form: FormType, data: FormData): boolean {
  return form.priceInputs.every((field) => {
    const v = data[field];
    return field === form.amountField ? typeof v === 'number' && v > 0 : typeof v === 'number';
  });
}

export function DeskForm({ desk, form }: { desk: Desk; form: FormType }) {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { schema, uiSchema, staticValues } = useMemo(() => effectiveForm(desk, form), [desk, form]);
  const transformErrors = useMemo(() => persianErrors(schema), [schema]);
  const formRef = useRef<Form>(null);
  const [data, setData] = useState<FormData>(staticValues);
  const [submitted, setSubmitted] = useState(false);
  const [confirmedQuote, setConfirmedQuote] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const idempotencyKey = useRef(crypto.randomUUID());
  const inFlight = useRef(false);

  const inputs = form.priceInputs.map((f) => data[f]);
  const ready = Boolean(user) && priceInputsReady(form, data);
  const quoteQuery = useQuery({
    queryKey: ['quote', desk.identifier, ...inputs],
    queryFn: () =>
      call<Quote>(
        api.POST('/api/me/desks/{desk}/priceInquiry', {
          params: { path: { desk: desk.identifier } },
          body: Object.fromEntries(form.priceInputs.map((f) => [f, data[f] as number])),
        }),
      ),
    enabled: ready,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const quote = ready ? quoteQuery.data : undefined;
  const expiresAt = quote ? quoteQuery.dataUpdatedAt + quote.expiresInSeconds * 1000 : null;

  // When the quote runs out, ask for a fresh one; the customer must confirm the new price.
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => void quoteQuery.refetch(), Math.max(0, expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt, quoteQuery]);

  const needsLevel = desk.businessType === 'simple' && (user?.approvedLevel ?? 0) < 1;
  const policyKey = `${desk.productCategory}PolicyApproved` as const;
  const needsPolicy = Boolean(user) && !user?.[policyKey];
  const canTry = Boolean(user) && !needsLevel && !needsPolicy;

  const submit = async ({ formData }: IChangeEvent<FormData>) => {
    if (inFlight.current) return;
    if (!quote) {
      setServerError('ابتدا قیمت را استعلام کنید.');
      return;
    }
    if (confirmedQuote !== quote.quoteId) {
      setServerError('ابتدا مبلغ قابل پرداخت را بررسی و تایید کنید.');
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    setServerError(null);
    try {
      await call(
        api.POST('/api/me/desks/{desk}/requests', {
          params: { path: { desk: desk.identifier }, header: { 'Idempotency-Key': idempotencyKey.current } },
          body: { ...(formData as Record<string, string | number | boolean | null>), quoteId: quote.quoteId },
        }),
      );
      idempotencyKey.current = crypto.randomUUID();
      showSnackbar('درخواست شما ثبت شد.', 'green', 5000);
      void queryClient.invalidateQueries({ queryKey: ['table', 'myRequests'] });
      navigate('/request/myRequests');
    } catch (error) {
      const fresh =
        (error instanceof ApiError ? (error.body as { data?: { quote?: Quote } } | null)?.data?.quote : undefined) ??
        null;
      if (fresh) queryClient.setQueryData(['quote', desk.identifier, ...inputs], fresh);
      setConfirmedQuote(null);
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  return (
    <Flex direction="column" gap="4">
      <RadixForm
        ref={formRef}
        schema={schema as never}
        uiSchema={{ ...uiSchema, 'ui:submitButtonOptions': { norender: true } } as never}
        formData={data}
        formContext={{ isCashService: desk.isCashService }}
        validator={formValidator}
        transformErrors={transformErrors}
        translateString={persianTranslator}
        showErrorList={false}
        noHtml5Validate
        liveValidate={submitted ? 'onChange' : undefined}
        onChange={(e) => setData({ ...(e.formData ?? {}), ...staticValues })}
        onSubmit={(e) => void submit(e)}
        onError={() => setSubmitted(true)}
      />

      {!user && (
        <Callout.Root color="blue">
          <Callout.Text>برای دیدن قیمت و ثبت درخواست، وارد حساب کاربری خود شوید.</Callout.Text>
          <Button mt="2" onClick={() => openLogin(true)} style={{ alignSelf: 'flex-start' }}>
            ورود
          </Button>
        </Callout.Root>
      )}
      {quoteQuery.isError && ready && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{digMessage(quoteQuery.error) ?? FALLBACK_MESSAGE}</Callout.Text>
        </Callout.Root>
      )}
      {quote && expiresAt && <PriceSummary quote={quote} expiresAt={expiresAt} />}

      {user && needsLevel && (
        <Callout.Root color="orange" data-testid="level-required">
          <Callout.Text>
            این خدمت به تایید هویت (سطح یک) نیاز دارد. ابتدا{' '}
            <Link to="/request/myProfile">پروفایل خود را تکمیل کنید</Link>؛ پس از تایید کارشناسان می‌توانید درخواست را
            ثبت کنید.
          </Callout.Text>
        </Callout.Root>
      )}
      {user && !needsLevel && needsPolicy && (
        <Callout.Root color="gray" data-testid="policy-required">
          <Flex direction="column" gap="2">
            <Text weight="bold">پذیرش قوانین و مقررات</Text>
            <TermsText />
            <Button
              style={{ alignSelf: 'flex-start' }}
              onClick={async () => {
                try {
                  await api.POST(POLICY_OPERATIONS[desk.productCategory]);
                  await loadUser();
                } catch (error) {
                  setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
                }
              }}
              data-testid="accept-policy"
            >
              قوانین را خواندم و می‌پذیرم
            </Button>
          </Flex>
        </Callout.Root>
      )}
      {quote && !needsLevel && !needsPolicy && (
        <Text as="label" size="2">
          <Flex gap="2" align="center">
            <Checkbox
              checked={confirmedQuote === quote.quoteId}
              onCheckedChange={(c) => {
                setConfirmedQuote(c === true ? quote.quoteId : null);
                setServerError(null);
              }}
              data-testid="confirm-price"
            />
            مبلغ قابل پرداخت را دیدم و تایید می‌کنم.
          </Flex>
        </Text>
      )}
      {serverError && (
        <Callout.Root color="red" role="alert" data-testid="submit-error">
          <Callout.Text>{serverError}</Callout.Text>
        </Callout.Root>
      )}
      <Button
        size="3"
        onClick={() => {
          setSubmitted(true);
          formRef.current?.submit();
        }}
        disabled={!canTry || submitting}
        loading={submitting}
        data-testid="submit-request"
      >
        ثبت درخواست
      </Button>
    </Flex>
  );
}
