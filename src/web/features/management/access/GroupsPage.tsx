import { Button, Card, Checkbox, Dialog, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import groupsTable from '../../../../../schemas/tables/groups.json';
import type { components } from '../../../../generated/api';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { asTableDef, DataTable } from '../../data-table/DataTable';
import { showError, showSnackbar } from '../../shell/snackbar';

type Group = components['schemas']['Group'];
type Action = components['schemas']['Action'];
type UserSummary = components['schemas']['UserSummary'];

function GroupEditor({ group, onClose }: { group: Group | null; onClose: (saved: boolean) => void }) {
  const actions = useQuery({
    queryKey: ['actions'],
    queryFn: () => call<{ items: Action[] }>(api.GET('/api/users/getActions')),
  });
  const staff = useQuery({
    queryKey: ['staffUsers'],
    queryFn: () => call<{ items: UserSummary[] }>(api.GET('/api/users/getUsers')),
  });
  const [chosenActions, setChosenActions] = useState<Set<number>>(new Set(group?.actions));
  const [members, setMembers] = useState<Set<number>>(new Set(group?.users));
  const toggle = (set: Set<number>, id: number) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };
  const save = async () => {
    if (!group) return;
    try {
      await call(api.POST('/api/users/saveGroupActions', { body: { id: group.id, actions: [...chosenActions] } }));
      await call(api.POST('/api/users/saveGroupUsers', { body: { id: group.id, users: [...members] } }));
      showSnackbar('ذخیره شد.', 'green');
      onClose(true);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Dialog.Root open={group !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(720px, 92vw)">
        <Dialog.Title>{group?.title}</Dialog.Title>
        <Flex gap="5" wrap="wrap">
          <Flex direction="column" gap="1" style={{ flex: 1, minWidth: 240 }}>
            <Text weight="bold">دسترسی‌ها</Text>
            {(actions.data?.items ?? []).map((a) => (
              <Text as="label" size="2" key={a.id}>
                <Flex gap="2" align="center">
                  <Checkbox
                    checked={chosenActions.has(a.id)}
                    onCheckedChange={() => setChosenActions((s) => toggle(s, a.id))}
                  />
                  {a.title}
                </Flex>
              </Text>
            ))}
          </Flex>
          <Flex direction="column" gap="1" style={{ flex: 1, minWidth: 200 }}>
            <Text weight="bold">اعضا (کارمندان)</Text>
            {(staff.data?.items ?? []).map((u) => (
              <Text as="label" size="2" key={u.id}>
                <Flex gap="2" align="center">
                  <Checkbox checked={members.has(u.id)} onCheckedChange={() => setMembers((s) => toggle(s, u.id))} />
                  {u.name}
                </Flex>
              </Text>
            ))}
          </Flex>
        </Flex>
        <Flex justify="end" gap="2" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              انصراف
            </Button>
          </Dialog.Close>
          <Button onClick={() => void save()}>ذخیره</Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Groups hold users and actions. */
export default function GroupsPage() {
  const [refreshKey, setRefreshKey] = useState(0);
  const [name, setName] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Group | null>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await call(api.POST('/api/users/saveGroup', { body: { name, title } }));
      setName('');
      setTitle('');
      setRefreshKey((k) => k + 1);
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    }
  };

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">گروه‌ها</Heading>
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
            <Button type="submit">افزودن گروه</Button>
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
          def={asTableDef(groupsTable)}
          refreshKey={refreshKey}
          actions={(row) => (
            <Button size="1" variant="soft" onClick={() => setEditing(row as unknown as Group)}>
              ویرایش
            </Button>
          )}
        />
      </Card>
      {editing && (
        <GroupEditor
          group={editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) setRefreshKey((k) => k + 1);
          }}
        />
      )}
    </Flex>
  );
}
