import { Button, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import actionsTable from '../../../../../schemas/tables/actions.json';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { asTableDef, DataTable } from '../../data-table/DataTable';
import { showError, showSnackbar } from '../../shell/snackbar';

/** Named actions (permissions); those the contract uses cannot be removed. */
export default function ActionsPage() {
  const [refreshKey, setRefreshKey] = useState(0);
  const [name, setName] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await call(api.POST('/api/users/saveAction', { body: { name, title } }));
      setName('');
      setTitle('');
      setRefreshKey((k) => k + 1);
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    }
  };

  const remove = async (id: number) => {
    try {
      await call(api.POST('/api/users/removeAction', { body: { id } }));
      showSnackbar('حذف شد.', 'green');
      setRefreshKey((k) => k + 1);
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">دسترسی‌ها</Heading>
      <Card size="2">
        <form onSubmit={create}>
          <Flex gap="2" wrap="wrap">
            <TextField.Root
              placeholder="نام سیستمی (لاتین)"
              dir="ltr"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-label="نام سیستمی"
              required
            />
            <TextField.Root
              placeholder="عنوان"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              aria-label="عنوان"
              required
            />
            <Button type="submit">افزودن دسترسی</Button>
          </Flex>
          {error && (
            <Text size="1" color="red" role="alert">
              {error}
            </Text>
          )}
        </form>
      </Card>
      <Card size="2">
        <DataTable
          def={asTableDef(actionsTable)}
          refreshKey={refreshKey}
          actions={(row) =>
            row.usedByContract ? null : (
              <Button size="1" color="red" variant="soft" onClick={() => void remove(Number(row.id))}>
                حذف
              </Button>
            )
          }
        />
      </Card>
    </Flex>
  );
}
