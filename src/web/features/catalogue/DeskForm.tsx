/**
 * A desk's form, rendered by the form engine from the catalogue; the server prices it (quote with a
 * countdown, re-quoted when it runs out or a rate changes) and the customer confirms the price they saw.
 * Submit is enabled only when it can succeed (valid form, a quote, the price confirmed); until then a short
 * Persian list beside it says what is missing. A renewed quote is announced with its price; the confirmation
 * stays when the payable price is unchanged and, when it changed, the box says the new price needs confirming.
 * Once made, the request goes to the pay step (DeskPage, `?purchase=<id>`).
 */

import { Box, Button, Callout, Checkbox, Flex, Text } from '@radix-ui/themes';
import type Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFValidationError } from '@rjsf/utils';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { components } from '../../../generated/api';
import { effectiveForm } from '../../../shared/catalogue';
import { formatRial } from '../../../shared/format';
import { RadixForm } from '../../components/form-engine/theme';
import { persianTranslator } from '../../components/form-engine/translator';
import { errorPath, persianErrors, validatorFor } from '../../components/form-engine/validator';
import { TermsText } from '../../components/TermsText';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { POLICY_OPERATIONS } from '../../lib/policy-approval';
import type { Desk, FormType } from '../../lib/queries/catalogue';
import { loadUser, loginDialogOpenAtom, userAtom } from '../../lib/session';
import { PriceSummary, type Quote } from './PriceSummary';

type FormData = Record<string, unknown>;
type DeskFormInput = components['schemas']['DeskFormInput'];

/** The field an error belongs to, named as its rjsf id without `root_` (`attendees_0_name`). */
const errorField = (error: RJSFValidationError): string => {
  const missing = error.name === 'required' ? (error.params as { missingProperty?: string }).missingProperty : '';
  return [...errorPath(error), ...(missing ? [missing] : [])].join('_');
};

/** The price the customer confirmed: for these price inputs, this payable amount. */
interface Confirmation {
  inputs: string;
  payablePrice: number;
}

/** A quote that replaced another for the same inputs (it ran out, or a rate changed). */
interface Renewal {
  quoteId: string;
  payablePrice: number;
  previousPayablePrice: number;
}

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
  const validator = useMemo(() => validatorFor(schema), [schema]);
  // A field shows what is wrong with its value as it is typed, and that it is empty once left; the list
  // beside submit shows every error from the start.
  const visited = useRef(new Set<string>());
  const visibleErrors = useCallback(
    (errors: RJSFValidationError[]) =>
      transformErrors(errors).filter((e) => e.name !== 'required' || visited.current.has(errorField(e))),
    [transformErrors],
  );
  const formRef = useRef<Form>(null);
  const [data, setData] = useState<FormData>(staticValues);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [renewal, setRenewal] = useState<Renewal | null>(null);
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
    // A quote makes one request (the server spends it): never reuse one after the desk page is left.
    gcTime: 0,
  });
  const quote = ready ? quoteQuery.data : undefined;
  const expiresAt = quote ? quoteQuery.dataUpdatedAt + quote.expiresInSeconds * 1000 : null;
  const inputsKey = JSON.stringify(inputs);
  const confirmed =
    Boolean(quote) && confirmation?.inputs === inputsKey && confirmation.payablePrice === quote?.payablePrice;
  // Ticked for a price that is no longer the one to pay: say so beside the box rather than untick silently.
  const reconfirm = Boolean(quote) && confirmation !== null && !confirmed;

  // A new quote for the same inputs is a renewal: announce it with its price (a new amount is no renewal).
  const lastQuote = useRef<{ inputs: string; quote: Quote } | null>(null);
  useEffect(() => {
    if (!quote) return;
    const last = lastQuote.current;
    lastQuote.current = { inputs: inputsKey, quote };
    if (last?.inputs !== inputsKey) setRenewal(null);
    else if (last.quote.quoteId !== quote.quoteId) {
      setRenewal({
        quoteId: quote.quoteId,
        payablePrice: quote.payablePrice,
        previousPayablePrice: last.quote.payablePrice,
      });
    }
  }, [quote, inputsKey]);

  const formErrors = useMemo(
    () => validator.validateFormData(data, schema as never, undefined, transformErrors).errors,
    [data, schema, validator, transformErrors],
  );

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
  const canSubmit = canTry && formErrors.length === 0 && Boolean(quote) && !quoteQuery.isError && confirmed;
  const missing = [...new Set(formErrors.map((e) => e.message ?? ''))].filter(Boolean);
  if (canTry && ready && !quote && quoteQuery.isFetching) missing.push('قیمت در حال استعلام است…');
  // After a price change the box itself says it needs confirming again.
  if (canTry && quote && !confirmed && !reconfirm)
    missing.push('مبلغ قابل پرداخت را بررسی و تایید کنید (تیک تایید مبلغ).');
  const describedBy = missing.length > 0 ? 'submit-missing' : reconfirm ? 'reconfirm-price' : undefined;

  const submit = async ({ formData }: IChangeEvent<FormData>) => {
    if (inFlight.current) return;
    if (!quote) {
      setServerError('ابتدا قیمت را استعلام کنید.');
      return;
    }
    if (!confirmed) {
      setServerError('ابتدا مبلغ قابل پرداخت را بررسی و تایید کنید.');
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    setServerError(null);
    try {
      const purchase = await call<{ id: number }>(
        api.POST('/api/me/desks/{desk}/requests', {
          params: { path: { desk: desk.identifier }, header: { 'Idempotency-Key': idempotencyKey.current } },
          body: { ...(formData as DeskFormInput), quoteId: quote.quoteId },
        }),
      );
      idempotencyKey.current = crypto.randomUUID();
      void queryClient.invalidateQueries({ queryKey: ['table', 'myRequests'] });
      void queryClient.invalidateQueries({ queryKey: ['purchase'] });
      // The pay step takes the form's place; the address keeps the request, so a reload comes back to it.
      navigate({ search: `?purchase=${purchase.id}` }, { replace: true });
    } catch (error) {
      const fresh =
        (error instanceof ApiError ? (error.body as { data?: { quote?: Quote } } | null)?.data?.quote : undefined) ??
        null;
      if (fresh) queryClient.setQueryData(['quote', desk.identifier, ...inputs], fresh);
      setConfirmation(null);
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
        validator={validator}
        translateString={persianTranslator}
        showErrorList={false}
        noHtml5Validate
        transformErrors={visibleErrors}
        liveValidate="onChange"
        onBlur={(id) => {
          visited.current.add(id.replace(/^root_/, ''));
          formRef.current?.validateForm();
        }}
        onChange={(e) => setData({ ...(e.formData ?? {}), ...staticValues })}
        onSubmit={(e) => void submit(e)}
        // Errors are shown under their fields and beside submit; without this rjsf logs each validation to the console.
        onError={() => undefined}
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
        <Flex direction="column" gap="1">
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <Checkbox
                checked={confirmed}
                onCheckedChange={(c) => {
                  setConfirmation(c === true ? { inputs: inputsKey, payablePrice: quote.payablePrice } : null);
                  setServerError(null);
                }}
                aria-describedby={reconfirm ? 'reconfirm-price' : undefined}
                data-testid="confirm-price"
              />
              مبلغ قابل پرداخت را دیدم و تایید می‌کنم.
            </Flex>
          </Text>
          {reconfirm && (
            <Text size="2" color="orange" id="reconfirm-price" role="status" data-testid="reconfirm-price">
              مبلغ قابل پرداخت به {formatRial(quote.payablePrice)} تغییر کرد؛ برای ثبت درخواست، مبلغ جدید را بررسی و
              دوباره تایید کنید.
            </Text>
          )}
        </Flex>
      )}
      {/* Below the box, so a renewal never moves what the customer is looking at or has focused. */}
      {quote && renewal?.quoteId === quote.quoteId && (
        <Callout.Root color={renewal.payablePrice === renewal.previousPayablePrice ? 'blue' : 'orange'} size="1">
          <Callout.Text role="status" data-testid="quote-renewed">
            {renewal.payablePrice === renewal.previousPayablePrice
              ? `قیمت تمدید شد. مبلغ قابل پرداخت تغییری نکرد: ${formatRial(renewal.payablePrice)}.`
              : `قیمت تمدید شد و مبلغ قابل پرداخت تغییر کرد: ${formatRial(renewal.payablePrice)} (پیش‌تر ${formatRial(renewal.previousPayablePrice)}).`}
          </Callout.Text>
        </Callout.Root>
      )}
      {serverError && (
        <Callout.Root color="red" role="alert" data-testid="submit-error">
          <Callout.Text>{serverError}</Callout.Text>
        </Callout.Root>
      )}
      {canTry && !canSubmit && missing.length > 0 && (
        <Box id="submit-missing" data-testid="submit-missing" aria-live="polite">
          <Text size="2" weight="medium">
            برای ثبت درخواست:
          </Text>
          <ul className="missing-list">
            {missing.map((item) => (
              <li key={item}>
                <Text size="2" color="gray">
                  {item}
                </Text>
              </li>
            ))}
          </ul>
        </Box>
      )}
      <Button
        size="3"
        onClick={() => formRef.current?.submit()}
        disabled={!canSubmit || submitting}
        loading={submitting}
        aria-describedby={canTry && !canSubmit ? describedBy : undefined}
        data-testid="submit-request"
      >
        ثبت درخواست
      </Button>
    </Flex>
  );
}
