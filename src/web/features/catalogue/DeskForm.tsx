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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { components } from '../../../generated/api';
import { deadlineFieldOf } from '../../../shared/deadline';
import { formatRial, toPersianDigits } from '../../../shared/format';
import { DeskFields, errorField, useDeskForm } from '../../components/form-engine/DeskFields';
import { DateText } from '../../components/date/DateText';
import { TermsText } from '../../components/TermsText';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { POLICY_OPERATIONS } from '../../lib/policy-approval';
import { clearDeskDraft, profileFor, readDeskDraft, saveDeskDraft } from '../../lib/desk-draft';
import type { Desk, FormType } from '../../lib/queries/catalogue';
import { loadUser, sessionReadyAtom, storedTokenAtom, userAtom } from '../../lib/session';
import { focusFieldSoon, StepList, stepErrors, stepsOf } from './FormSteps';
import { PriceBar, PriceSummary, type Quote } from './PriceSummary';
import { draftOf, useServerDraft } from './useServerDraft';

type FormData = Record<string, unknown>;
type DeskFormInput = components['schemas']['DeskFormInput'];
type Purchase = components['schemas']['Purchase'];

/**
 * What a new request of a desk takes from the customer's last one there: the required fields a customer enters the
 * same way each time (currency, payment method group, the payment page and user name), never the amount, a
 * write-only secret (the password) or a value the desk fixes.
 */
function rememberedValues(
  last: Purchase | undefined,
  form: FormType,
  schema: { required: string[]; properties: Record<string, Record<string, unknown>> },
  staticValues: FormData,
): FormData {
  if (!last) return {};
  return Object.fromEntries(
    Object.entries(last.fields).filter(
      ([key, value]) =>
        schema.required.includes(key) &&
        key !== form.amountField &&
        !schema.properties[key]?.writeOnly &&
        !(key in staticValues) &&
        value !== null &&
        value !== '',
    ),
  );
}

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

/** The deadline field's day when the desk promises against it and a whole date is typed (decision 041). */
function promisedDeadline(desk: Desk, schema: object, data: FormData): { field: string; day: string } | null {
  const field = desk.promise ? deadlineFieldOf(schema) : null;
  const day = field === null ? undefined : data[field];
  return field !== null && typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? { field, day } : null;
}

/** The promise beside the price: until when to pay for it, or why not (the server's words). */
function PromiseNote({ promise }: { promise: NonNullable<Quote['promise']> }) {
  return (
    <Callout.Root color={promise.canMeet ? 'green' : 'orange'} size="1" role="status" data-testid="deadline-promise">
      <Callout.Text>{promise.text}</Callout.Text>
    </Callout.Root>
  );
}

function priceInputsReady(form: FormType, data: FormData): boolean {
  return form.priceInputs.every((field) => {
    const v = data[field];
    return field === form.amountField ? typeof v === 'number' && v > 0 : typeof v === 'number';
  });
}

/** A plan step's values for this desk's form: only its fields, never one the desk fixes. */
function prefillOf(prefill: FormData | undefined, properties: Record<string, unknown>, staticValues: FormData) {
  return Object.fromEntries(
    Object.entries(prefill ?? {}).filter(([key]) => key in properties && !(key in staticValues)),
  );
}

export function DeskForm({
  desk,
  form,
  prefill,
  onStepReached,
}: {
  desk: Desk;
  form: FormType;
  prefill?: FormData | undefined;
  /** A form in steps: called with the step's index (from 0) and the number of steps each time one is reached. */
  onStepReached?: (index: number, stepCount: number) => void;
}) {
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { schema, uiSchema, staticValues, transformErrors, validator } = useDeskForm(desk, form);
  // A form in steps (`ui:steps`): «بعدی» checks the step's own fields; the price and the submit are on the last.
  const steps = useMemo(() => stepsOf(uiSchema), [uiSchema]);
  const [stepIndex, setStepIndex] = useState(0);
  const step = steps?.[stepIndex];
  const lastStep = !steps || stepIndex === steps.length - 1;
  const visited = useRef(new Set<string>());
  const fieldsBox = useRef<HTMLDivElement>(null);
  const stepMoved = useRef(false);
  const reached = useRef(onStepReached);
  reached.current = onStepReached;
  useEffect(() => {
    if (steps) reached.current?.(stepIndex, steps.length);
    // Moved by «بعدی» or «قبلی»: the customer carries on from the step's first field.
    if (stepMoved.current && step) focusFieldSoon(fieldsBox, step.fields[0] ?? '');
    stepMoved.current = false;
  }, [stepIndex, steps, step]);
  // A signed-in customer's draft on the server (any device) comes back under the plan's and the desk's values.
  const serverDraft = useServerDraft(desk.identifier, Boolean(user));
  const [serverDraftApplied, setServerDraftApplied] = useState(false);
  // The fields show their errors as they are typed or left (DeskFields); the list beside submit shows every error
  // from the start.
  const formRef = useRef<Form>(null);
  // A draft this tab kept of the form (the customer went to complete their profile) comes back under the desk's
  // fixed values.
  // Opened from the customer's plan, the step's values (currency, amount, subject) come over the draft.
  const [data, setData] = useState<FormData>(() => ({
    ...readDeskDraft(desk.identifier),
    ...prefillOf(prefill, schema.properties, staticValues),
    ...staticValues,
  }));
  const [draftShown] = useState(() => Object.keys(readDeskDraft(desk.identifier)).length > 0);
  useEffect(() => {
    saveDeskDraft(desk.identifier, data, schema.properties);
  }, [desk.identifier, data, schema.properties]);
  // The customer's last request of this desk fills what they enter the same way each time, once, under what they
  // may already have typed.
  const lastRequest = useQuery({
    queryKey: ['lastRequest', desk.identifier, user?.id],
    queryFn: () =>
      call<{ items: Purchase[] }>(api.POST('/api/me/searchPurchases', { body: { desk: desk.identifier, perPage: 1 } })),
    enabled: Boolean(user),
    staleTime: 0,
    gcTime: 0,
  });
  const [remembered, setRemembered] = useState<string[]>([]);
  const [memoryApplied, setMemoryApplied] = useState(false);
  // Applied while rendering, before the form is drawn with it: rjsf keeps its own copy of the data, and a change it
  // reports from that copy (a desk's only currency chosen for the customer) would drop values set after it drew.
  if (!memoryApplied && lastRequest.data) {
    setMemoryApplied(true);
    const values = rememberedValues(lastRequest.data.items[0], form, schema, staticValues);
    if (Object.keys(values).length > 0) {
      // What the customer typed stays; rjsf reports the fields it drew and left empty as undefined.
      setData((typed) => ({
        ...values,
        ...Object.fromEntries(Object.entries(typed).filter(([, value]) => value !== undefined && value !== '')),
      }));
      setRemembered(Object.keys(values));
    }
  }
  if (!serverDraftApplied && user && !serverDraft.pending) {
    setServerDraftApplied(true);
    const saved = serverDraft.draft?.data as FormData | undefined;
    if (saved && Object.keys(saved).length > 0) {
      setData((typed) => ({
        ...typed,
        ...saved,
        ...prefillOf(prefill, schema.properties, staticValues),
        ...staticValues,
      }));
    }
  }
  const serverDraftShown = serverDraftApplied && Object.keys(serverDraft.draft?.data ?? {}).length > 0;
  const { changed: draftChanged } = serverDraft;
  useEffect(() => {
    if (serverDraftApplied) draftChanged(draftOf(data, schema.properties, staticValues));
  }, [data, draftChanged, serverDraftApplied, schema.properties, staticValues]);
  // A stored token whose user is still being read is a customer about to be known: the form waits for them rather
  // than being drawn for a guest and drawn again under their hands once their last request and draft arrive (the
  // keys typed in between went to a field that was no longer there).
  const sessionReady = useAtomValue(sessionReadyAtom);
  const storedToken = useAtomValue(storedTokenAtom);
  const waitingForUser = !user && Boolean(storedToken) && !sessionReady;
  const waitingForMemory = waitingForUser || (Boolean(user) && (lastRequest.isPending || serverDraft.pending));
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [renewal, setRenewal] = useState<Renewal | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const idempotencyKey = useRef(crypto.randomUUID());
  const inFlight = useRef(false);

  const inputs = form.priceInputs.map((f) => data[f]);
  const ready = Boolean(user) && priceInputsReady(form, data);
  // A desk that promises against a deadline is asked again as the date changes (decision 041); the price inputs
  // alone decide what the customer confirms.
  const deadline = promisedDeadline(desk, schema, data);
  const quoteQuery = useQuery({
    queryKey: ['quote', desk.identifier, ...inputs, deadline?.day ?? null],
    queryFn: () =>
      call<Quote>(
        api.POST('/api/me/desks/{desk}/priceInquiry', {
          params: { path: { desk: desk.identifier } },
          body: {
            ...Object.fromEntries(form.priceInputs.map((f) => [f, data[f] as number])),
            ...(deadline && { [deadline.field]: deadline.day }),
          },
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
  // A new quote for another deadline is no renewal of the price.
  const quoteKey = JSON.stringify([...inputs, deadline?.day ?? null]);
  const confirmed =
    Boolean(quote) && confirmation?.inputs === inputsKey && confirmation.payablePrice === quote?.payablePrice;
  // Ticked for a price that is no longer the one to pay: say so beside the box rather than untick silently.
  const reconfirm = Boolean(quote) && confirmation !== null && !confirmed;

  // A new quote for the same inputs is a renewal: announce it with its price (a new amount is no renewal).
  const lastQuote = useRef<{ inputs: string; quote: Quote } | null>(null);
  useEffect(() => {
    if (!quote) return;
    const last = lastQuote.current;
    lastQuote.current = { inputs: quoteKey, quote };
    if (last?.inputs !== quoteKey) setRenewal(null);
    else if (last.quote.quoteId !== quote.quoteId) {
      setRenewal({
        quoteId: quote.quoteId,
        payablePrice: quote.payablePrice,
        previousPayablePrice: last.quote.payablePrice,
      });
    }
  }, [quote, quoteKey]);

  const formErrors = useMemo(
    () => validator?.validateFormData(data, schema as never, undefined, transformErrors).errors ?? [],
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
  const canSubmit =
    canTry && Boolean(validator) && formErrors.length === 0 && Boolean(quote) && !quoteQuery.isError && confirmed;
  const missing = [...new Set(formErrors.map((e) => e.message ?? ''))].filter(Boolean);
  if (canTry && ready && !quote && quoteQuery.isFetching) missing.push('قیمت در حال استعلام است…');
  // After a price change the box itself says it needs confirming again.
  if (canTry && quote && !confirmed && !reconfirm)
    missing.push('مبلغ قابل پرداخت را بررسی و تایید کنید (تیک تایید مبلغ).');
  const describedBy = missing.length > 0 ? 'submit-missing' : reconfirm ? 'reconfirm-price' : undefined;

  /** «بعدی»: the step's own fields only; on an error they all show it and the first takes the focus. */
  const next = () => {
    if (!steps || !step) return;
    const errors = stepErrors(formErrors, step);
    if (errors.length > 0) {
      for (const error of errors) visited.current.add(errorField(error));
      formRef.current?.validateForm();
      const first = errors[0]!;
      const field = errorField(first).split('_')[0] ?? '';
      // After the errors are drawn under the fields.
      focusFieldSoon(fieldsBox, field);
      return;
    }
    stepMoved.current = true;
    setStepIndex((i) => Math.min(i + 1, steps.length - 1));
  };
  const back = () => {
    stepMoved.current = true;
    setStepIndex((i) => Math.max(i - 1, 0));
  };
  const removeDraft = async () => {
    await serverDraft.remove();
    clearDeskDraft(desk.identifier);
    visited.current.clear();
    setData({ ...prefillOf(prefill, schema.properties, staticValues), ...staticValues });
    setStepIndex(0);
  };

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
      await serverDraft.settle();
      const purchase = await call<{ id: number }>(
        api.POST('/api/me/desks/{desk}/requests', {
          params: { path: { desk: desk.identifier }, header: { 'Idempotency-Key': idempotencyKey.current } },
          body: { ...(formData as DeskFormInput), quoteId: quote.quoteId },
        }),
      );
      idempotencyKey.current = crypto.randomUUID();
      clearDeskDraft(desk.identifier);
      serverDraft.submitted();
      void queryClient.invalidateQueries({ queryKey: ['table', 'myRequests'] });
      void queryClient.invalidateQueries({ queryKey: ['purchase'] });
      // The pay step takes the form's place; the address keeps the request, so a reload comes back to it.
      navigate({ search: `?purchase=${purchase.id}` }, { replace: true });
    } catch (error) {
      const fresh =
        (error instanceof ApiError ? (error.body as { data?: { quote?: Quote } } | null)?.data?.quote : undefined) ??
        null;
      if (fresh) queryClient.setQueryData(['quote', desk.identifier, ...inputs, deadline?.day ?? null], fresh);
      setConfirmation(null);
      setServerError(digMessage(error) ?? FALLBACK_MESSAGE);
      // Not made: the form is still a draft, saved again as the customer changes it.
      serverDraft.markTouched();
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  // The fields are memoized (DeskFields): what they are handed stays the same object until it changes, so a render of
  // the page for its price or countdown does not redraw every field.
  const signedIn = Boolean(user);
  const fieldsContext = useMemo(
    () => ({
      signedIn,
      // A widget may fill a field its choice decides (a Google Ads account's base currency).
      setField: (name: string, value: unknown) =>
        setTimeout(() => setData((d) => (d[name] === value ? d : { ...d, [name]: value })), 0),
    }),
    [signedIn],
  );
  const latestSubmit = useRef(submit);
  latestSubmit.current = submit;
  const onSubmit = useCallback((e: IChangeEvent<FormData>) => void latestSubmit.current(e), []);

  return (
    <Flex direction="column" gap="4">
      {/* First on the page: a customer not yet verified learns it before filling anything. */}
      {user && needsLevel && (
        <Callout.Root color="orange" data-testid="level-required" role="note">
          <Callout.Text>
            این خدمت به تایید هویت (سطح یک) نیاز دارد. ابتدا{' '}
            <Link to={profileFor(desk.identifier)} data-testid="complete-profile">
              پروفایل خود را تکمیل کنید
            </Link>
            ؛ آنچه در این فرم وارد می‌کنید (جز رمز عبور) تا بازگشت شما در همین مرورگر نگه داشته می‌شود و پس از تایید
            کارشناسان می‌توانید درخواست را ثبت کنید.
          </Callout.Text>
        </Callout.Root>
      )}
      {(draftShown || serverDraftShown) && (
        <Callout.Root color="blue" size="1" data-testid="draft-restored">
          <Callout.Text>فرمی که پیش‌تر در این خدمت پر کرده بودید بازگردانده شد.</Callout.Text>
        </Callout.Root>
      )}
      {remembered.length > 0 && (
        <Callout.Root color="blue" size="1" data-testid="remembered-note">
          <Callout.Text>
            {remembered.length === 1 ? 'یک فیلد' : `${toPersianDigits(remembered.length)} فیلد`} از درخواست قبلی شما در
            این خدمت پر شد؛ اگر لازم است تغییرش دهید.
          </Callout.Text>
        </Callout.Root>
      )}
      {steps && <StepList steps={steps} current={stepIndex} />}
      <div
        ref={fieldsBox}
        onInputCapture={serverDraft.markTouched}
        onClickCapture={serverDraft.markTouched}
        onKeyDownCapture={serverDraft.markTouched}
      >
        <DeskFields
          stepFields={step?.fields}
          visited={visited}
          desk={desk}
          form={form}
          formRef={formRef}
          formData={data}
          preparing={waitingForMemory}
          formContext={fieldsContext}
          onChange={setData}
          onSubmit={onSubmit}
        />
      </div>
      {steps && !lastStep && (
        <Flex gap="3" justify="between">
          <Button size="3" variant="soft" onClick={back} disabled={stepIndex === 0} data-testid="step-back">
            قبلی
          </Button>
          <Button size="3" onClick={next} data-testid="step-next">
            بعدی
          </Button>
        </Flex>
      )}
      {lastStep && (
        <>
          {quoteQuery.isError && ready && (
            <Callout.Root color="red" role="alert">
              <Callout.Text>{digMessage(quoteQuery.error) ?? FALLBACK_MESSAGE}</Callout.Text>
            </Callout.Root>
          )}
          {quote && expiresAt && <PriceSummary quote={quote} expiresAt={expiresAt} />}
          {quote?.promise && <PromiseNote promise={quote.promise} />}
          {quote && expiresAt && <PriceBar quote={quote} expiresAt={expiresAt} />}

          {user && !needsLevel && needsPolicy && (
            <Callout.Root color="gray" data-testid="policy-required">
              <Flex direction="column" gap="2">
                <Text weight="bold">پذیرش قوانین و مقررات</Text>
                <TermsText />
                {/* The app's accent, not the callout's grey, which reads as a disabled button. */}
                <Button
                  color="teal"
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
          {steps && (
            <Button size="3" variant="soft" onClick={back} data-testid="step-back">
              قبلی
            </Button>
          )}
        </>
      )}
      {/* Last, so a save appearing a second after a key never moves the field, the price or the box being used. */}
      {user && serverDraft.savedAt && (
        <Flex gap="3" align="center" wrap="wrap" data-testid="draft-saved">
          <Text size="2" color="gray" role="status">
            پیش‌نویس ذخیره شد، <DateText value={serverDraft.savedAt} format="longDateTime" />
          </Text>
          <Button size="1" variant="ghost" color="red" onClick={() => void removeDraft()} data-testid="remove-draft">
            حذف پیش‌نویس
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
