/** System parameters (fees, tax, limits, lifetimes): staff change a value; every change is audit-logged. */
import { Button, Card, Flex, Heading, Table, Text, TextField } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api';
import { toEnglishDigits } from '../../../../shared/digits';
import { formatNumber } from '../../../../shared/format';
import { api, call } from '../../../lib/api-client';
import { showError, showSnackbar } from '../../shell/snackbar';

type Parameter = components['schemas']['SystemParameter'];

function ParameterRow({ parameter }: { parameter: Parameter }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(parameter.value));
  const [busy, setBusy] = useState(false);
  const numeric = Number(toEnglishDigits(value).replace(/,/g, ''));
  const valid = value.trim() !== '' && Number.isFinite(numeric) && numeric >= 0;
  const changed = valid && numeric !== Number(parameter.value);
  const save = async () => {
    setBusy(true);
    try {
      await call(api.POST('/api/sys/saveSystemParameter', { body: { key: parameter.key, value: numeric } }));
      showSnackbar('پارامتر ذخیره شد.', 'green');
      void queryClient.invalidateQueries({ queryKey: ['systemParameters'] });
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Table.Row>
      <Table.Cell>
        <Text weight="medium">{parameter.description}</Text>
        <Text as="div" size="1" color="gray" className="ltr">
          {parameter.key}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <TextField.Root
          dir="ltr"
          value={value}
          aria-label={parameter.description}
          aria-invalid={!valid}
          onChange={(e) => setValue(e.target.value)}
          style={{ maxWidth: 160 }}
        />
      </Table.Cell>
      <Table.Cell className="hide-mobile ltr">{formatNumber(Number(parameter.value))}</Table.Cell>
      <Table.Cell>
        <Button size="1" disabled={!changed} loading={busy} onClick={() => void save()}>
          ذخیره
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}

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
        <div className="table-scroll">
          <Table.Root>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>پارامتر</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>مقدار</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell className="hide-mobile">فعلی</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>عملیات</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {query.isPending && (
                <Table.Row>
                  <Table.Cell colSpan={4}>در حال بارگذاری...</Table.Cell>
                </Table.Row>
              )}
              {(query.data?.items ?? []).map((p) => (
                <ParameterRow key={`${p.key}-${String(p.value)}`} parameter={p} />
              ))}
            </Table.Body>
          </Table.Root>
        </div>
      </Flex>
    </Card>
  );
}
