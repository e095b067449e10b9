/**
 * System parameters (fees, tax, limits, lifetimes): each under its Persian title, its value shown and typed in
 * its unit (rial, percent, seconds, or whole currency units for the foreign-amount limits stored in cents), and a
 * change confirmed with old and new values side by side before it is saved. Every change is audit-logged.
 * Titles, units and bounds come from the server (schemas/config/systemParameters.json); the conversion is
 * src/shared/system-parameters.ts.
 */
import { AlertDialog, Button, Callout, Card, DataList, Flex, Heading, Strong, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import messages from '../../../../../schemas/messages/fa.json';
import type { components } from '../../../../generated/api';
import {
  checkParameter,
  displayParameter,
  inputParameter,
  type ParameterUnit,
  parseParameter,
  UNIT_LABEL,
} from '../../../../shared/system-parameters';
import { type Column, TableView } from '../../../components/data-table/TableView';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';

type Parameter = components['schemas']['SystemParameter'];

const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '');

/** The Persian reason a typed value cannot be saved, or null. */
function problemOf(parameter: Parameter, stored: number | null): string | null {
  if (stored === null) return `مقدار «${parameter.title}» را به عدد وارد نمایید.`;
  const problem = checkParameter({ ...parameter, unit: parameter.unit as ParameterUnit }, stored);
  return problem ? fill(messages.messages[problem.key], problem.params) : null;
}

/** A value with its unit, the digits kept left-to-right inside the Persian sentence. */
function Amount({ unit, stored }: { unit: ParameterUnit; stored: number }) {
  return (
    <>
      <span className="ltr">{displayParameter(unit, stored)}</span> {UNIT_LABEL[unit]}
    </>
  );
}

const fieldId = (parameter: Parameter) => `parameter-${parameter.key}`;

/** The parameter's title (the label of its field), what it is for, and its value now. */
function ParameterLabel({ parameter }: { parameter: Parameter }) {
  const id = fieldId(parameter);
  return (
    <>
      <label htmlFor={id}>
        <Text weight="medium">{parameter.title}</Text>
      </label>
      <Text as="div" size="1" color="gray" id={`${id}-description`}>
        {parameter.description}
      </Text>
      <Text as="div" size="1" color="gray">
        فعلی: <Amount unit={parameter.unit as ParameterUnit} stored={Number(parameter.value)} />
      </Text>
    </>
  );
}

/** The new value typed in the parameter's unit, checked as typed, saved after a confirmation of old and new. */
function ParameterEditor({ parameter }: { parameter: Parameter }) {
  const queryClient = useQueryClient();
  const unit = parameter.unit as ParameterUnit;
  const current = Number(parameter.value);
  const [text, setText] = useState(inputParameter(unit, current));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stored = parseParameter(unit, text);
  const problem = problemOf(parameter, stored);
  const changed = stored !== null && stored !== current;
  const id = fieldId(parameter);

  const review = (e: FormEvent) => {
    e.preventDefault();
    if (!problem && changed) {
      setError(null);
      setConfirming(true);
    }
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/sys/saveSystemParameter', { body: { key: parameter.key, value: stored! } }));
      showSnackbar(`«${parameter.title}» ذخیره شد.`, 'green');
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['systemParameters'] });
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form onSubmit={review} noValidate>
        <Flex gap="2" align="start" wrap="wrap">
          <Flex direction="column" gap="1" style={{ flex: '1 1 150px', maxWidth: 220 }}>
            <TextField.Root
              id={id}
              dir="ltr"
              inputMode="decimal"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onBlur={() => stored !== null && setText(inputParameter(unit, stored))}
              aria-invalid={Boolean(problem)}
              aria-describedby={`${id}-description${problem ? ` ${id}-error` : ''}`}
            >
              <TextField.Slot side="right">
                <Text size="1" color="gray">
                  {UNIT_LABEL[unit]}
                </Text>
              </TextField.Slot>
            </TextField.Root>
            {problem && (
              <Text size="1" color="red" role="alert" id={`${id}-error`}>
                {problem}
              </Text>
            )}
          </Flex>
          <Button type="submit" disabled={!changed || Boolean(problem)}>
            ذخیره
          </Button>
        </Flex>
      </form>
      <AlertDialog.Root open={confirming} onOpenChange={(o) => !o && !busy && setConfirming(false)}>
        <AlertDialog.Content maxWidth="min(460px, 92vw)">
          <AlertDialog.Title>تغییر «{parameter.title}»</AlertDialog.Title>
          <AlertDialog.Description size="2">
            این مقدار از همین حالا برای همه درخواست‌های تازه به کار می‌رود.
          </AlertDialog.Description>
          <DataList.Root mt="3" data-testid="parameter-change">
            <DataList.Item>
              <DataList.Label>مقدار فعلی</DataList.Label>
              <DataList.Value>
                <span data-testid="parameter-old">
                  <Amount unit={unit} stored={current} />
                </span>
              </DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>مقدار جدید</DataList.Label>
              <DataList.Value>
                <Strong data-testid="parameter-new">{stored !== null && <Amount unit={unit} stored={stored} />}</Strong>
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
          {error && (
            <Callout.Root color="red" mt="3" role="alert">
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          )}
          <Flex gap="3" mt="4" justify="end" wrap="wrap">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" disabled={busy}>
                انصراف
              </Button>
            </AlertDialog.Cancel>
            <Button loading={busy} onClick={() => void save()}>
              تایید و ذخیره
            </Button>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </>
  );
}

const COLUMNS: Array<Column<Parameter>> = [
  { key: 'parameter', title: 'پارامتر', cell: (p) => <ParameterLabel parameter={p} /> },
  { key: 'value', title: 'مقدار', cell: (p) => <ParameterEditor parameter={p} /> },
];

export function SystemParameters() {
  const query = useQuery({
    queryKey: ['systemParameters', 'all'],
    queryFn: () => call<{ items: Parameter[] }>(api.POST('/api/sys/fetchSystemParameters')),
    retry: false,
  });
  if (query.isError) return null; // staff without manageSystemParameters do not see this section
  return (
    <Card size="2">
      <Flex direction="column" gap="3">
        <Heading size="4">پارامترهای سیستم</Heading>
        <TableView
          columns={COLUMNS}
          rows={query.data?.items ?? []}
          // A saved value gives the row a new key: its editor starts again from the value stored.
          rowKey={(p) => `${p.key}-${String(p.value)}`}
          rowProps={(p) => ({ 'data-testid': 'system-parameter', 'data-key': p.key })}
          loading={query.isPending}
        />
      </Flex>
    </Card>
  );
}
