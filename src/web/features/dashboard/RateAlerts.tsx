/**
 * The signed-in customer's rate alerts on one currency, in its chart panel: «وقتی دلار به ۹۵۰٬۰۰۰ ریال یا کمتر رسید
 * خبرم کن». Amounts are rial, as everywhere in the product; the toman equivalent is written under the field. Each
 * alert can be paused, resumed or removed; one that fired says so (the bell brings the notification live). A guest
 * is asked to log in.
 */
import { Badge, Button, Callout, Card, Flex, Heading, RadioGroup, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { type FormEvent, useId, useState } from 'react';
import { formatToman, groupWhileTyping, toPersianDigits } from '../../../shared/format';
import { toEnglishDigits } from '../../../shared/digits';
import { RATE_ALERT_CONDITION, RATE_ALERT_DAYS, type RateAlertDirection } from '../../../shared/rate-alerts';
import { DateText } from '../../components/date/DateText';
import { RialText } from '../../components/RialText';
import { showSnackbar } from '../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { queryClient } from '../../lib/query';
import type { Currency } from '../../lib/queries/currencies';
import { RATE_ALERTS_KEY, type RateAlert, rateAlertsQuery } from '../../lib/queries/rates';
import { loginDialogOpenAtom, userAtom } from '../../lib/session';

function AlertState({ alert }: { alert: RateAlert }) {
  if (alert.expired) return <Badge color="gray">منقضی شده</Badge>;
  if (alert.paused) return <Badge color="amber">متوقف</Badge>;
  if (alert.beyond) return <Badge color="green">نرخ اکنون در این محدوده است</Badge>;
  return <Badge color="blue">فعال</Badge>;
}

function AlertCard({
  alert,
  busy,
  onRun,
}: {
  alert: RateAlert;
  busy: boolean;
  onRun: (run: () => Promise<unknown>) => void;
}) {
  const save = (paused: boolean) =>
    call(
      api.POST('/api/me/saveRateAlert', {
        body: {
          id: alert.id,
          currencyId: alert.currencyId,
          direction: alert.direction,
          threshold: alert.threshold,
          paused,
        },
      }),
    );
  return (
    <Card size="1" data-testid={`rate-alert-${alert.id}`}>
      <Flex direction="column" gap="2">
        <Flex align="center" justify="between" gap="2" wrap="wrap">
          <Text size="2">
            وقتی {alert.currencyTitle} به <RialText value={alert.threshold} /> {RATE_ALERT_CONDITION[alert.direction]}{' '}
            رسید
          </Text>
          <AlertState alert={alert} />
        </Flex>
        <Text size="1" color="gray">
          {alert.firedCount > 0 ? (
            <>
              {toPersianDigits(alert.firedCount)} بار خبر داده شد؛ آخرین بار{' '}
              <DateText value={alert.lastFiredAt!} format="dateTime" />.{' '}
            </>
          ) : null}
          اعتبار تا <DateText value={alert.expiresAt} format="date" />
        </Text>
        <Flex gap="2" wrap="wrap">
          {!alert.expired && (
            <Button
              size="1"
              variant="soft"
              disabled={busy}
              onClick={() => onRun(() => save(!alert.paused))}
              data-testid="rate-alert-pause"
            >
              {alert.paused ? 'ادامهٔ هشدار' : 'توقف هشدار'}
            </Button>
          )}
          <Button
            size="1"
            variant="soft"
            color="red"
            disabled={busy}
            onClick={() => onRun(() => call(api.POST('/api/me/removeRateAlert', { body: { alertId: alert.id } })))}
            data-testid="rate-alert-remove"
          >
            حذف
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

function AlertForm({ currency, left }: { currency: Currency; left: number }) {
  const [direction, setDirection] = useState<RateAlertDirection>('below');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const digits = toEnglishDigits(typed).replace(/[,،٬\s]/g, '');
  const threshold = /^\d+$/.test(digits) ? Number(digits) : NaN;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!Number.isSafeInteger(threshold) || threshold <= 0) {
      setError('نرخ هشدار را به ریال و با عدد صحیح مثبت وارد کنید.');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await call(api.POST('/api/me/saveRateAlert', { body: { currencyId: currency.id, direction, threshold } }));
      setTyped('');
      showSnackbar('هشدار نرخ ثبت شد؛ وقتی نرخ برسد در اعلان‌ها و با پیامک خبرتان می‌کنیم.', 'green');
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: RATE_ALERTS_KEY });
    }
  };

  const toman = Number.isFinite(threshold) ? formatToman(threshold) : '';
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="rate-alert-form" noValidate>
      <Flex direction="column" gap="2">
        <Text as="label" htmlFor={fieldId} size="2" weight="medium">
          وقتی نرخ {currency.title} به این مبلغ (ریال) رسید خبرم کن
        </Text>
        <TextField.Root
          id={fieldId}
          inputMode="numeric"
          dir="ltr"
          value={typed}
          onChange={(e) => setTyped(groupWhileTyping(e.target.value))}
          aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}`}
          aria-invalid={error ? true : undefined}
          data-testid="rate-alert-threshold"
        >
          <TextField.Slot side="right">ریال</TextField.Slot>
        </TextField.Root>
        <Text id={hintId} size="1" color="gray">
          مبلغ‌ها در این سامانه به ریال است (هر تومان ده ریال){toman ? `؛ برابر ${toman}` : ''}. نرخ کنونی:{' '}
          <RialText value={currency.rate} />
        </Text>
        <RadioGroup.Root
          value={direction}
          onValueChange={(v) => setDirection(v as RateAlertDirection)}
          aria-label="شرط هشدار"
          data-testid="rate-alert-direction"
        >
          <Flex gap="4" wrap="wrap">
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <RadioGroup.Item value="below" /> این مبلغ یا کمتر
              </Flex>
            </Text>
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <RadioGroup.Item value="above" /> این مبلغ یا بیشتر
              </Flex>
            </Text>
          </Flex>
        </RadioGroup.Root>
        {error && (
          <Text id={errorId} size="2" color="red" role="alert" data-testid="rate-alert-error">
            {error}
          </Text>
        )}
        <Flex align="center" gap="3" wrap="wrap">
          <Button type="submit" loading={busy} disabled={left <= 0} data-testid="rate-alert-submit">
            خبرم کن
          </Button>
          <Text size="1" color="gray">
            {left > 0
              ? `${toPersianDigits(left)} هشدار دیگر می‌توانید بگذارید`
              : 'به سقف هشدارها رسیده‌اید؛ یکی را حذف کنید'}
            ؛ هر هشدار {toPersianDigits(RATE_ALERT_DAYS)} روز معتبر است.
          </Text>
        </Flex>
      </Flex>
    </form>
  );
}

export function RateAlerts({ currency }: { currency: Currency }) {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const alerts = useQuery({ ...rateAlertsQuery, enabled: user !== null });
  const [busyId, setBusyId] = useState<number | null>(null);

  if (!user) {
    return (
      <Callout.Root color="gray" data-testid="rate-alert-guest">
        <Callout.Text>
          برای اینکه وقتی نرخ {currency.title} به مبلغ دلخواهتان رسید خبرتان کنیم، وارد حساب شوید.{' '}
          <Button size="1" variant="soft" onClick={() => openLogin(true)}>
            ورود
          </Button>
        </Callout.Text>
      </Callout.Root>
    );
  }

  const run = (id: number) => async (request: () => Promise<unknown>) => {
    setBusyId(id);
    try {
      await request();
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusyId(null);
      await queryClient.invalidateQueries({ queryKey: RATE_ALERTS_KEY });
    }
  };
  const all = alerts.data?.items ?? [];
  const mine = all.filter((a) => a.currencyId === currency.id);
  const live = all.filter((a) => !a.expired).length;
  const left = (alerts.data?.max ?? 0) - live;

  return (
    <Flex direction="column" gap="3" data-testid="rate-alerts">
      <Heading as="h4" size="3">
        هشدار نرخ {currency.title}
      </Heading>
      {alerts.isError && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{digMessage(alerts.error) ?? FALLBACK_MESSAGE}</Callout.Text>
        </Callout.Root>
      )}
      {mine.map((alert) => (
        <AlertCard key={alert.id} alert={alert} busy={busyId === alert.id} onRun={(r) => void run(alert.id)(r)} />
      ))}
      {alerts.isSuccess && <AlertForm currency={currency} left={left} />}
    </Flex>
  );
}
