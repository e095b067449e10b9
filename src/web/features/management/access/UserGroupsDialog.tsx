/** Which groups a user belongs to: a list of checkboxes, saved at once (api/users/saveUserGroups). */
import { Callout, CheckboxGroup, Dialog, Text } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { groupsQuery, invalidateAccess, type UserSummary } from './queries';

export function UserGroupsDialog({ user, onClose }: { user: UserSummary; onClose: () => void }) {
  const groups = useQuery(groupsQuery);
  const [chosen, setChosen] = useState<string[]>(user.groups.map(String));
  const { busy, error, run } = useDialogAction();

  const save = () =>
    void run(
      async () => {
        await call(api.POST('/api/users/saveUserGroups', { body: { id: user.id, groups: chosen.map(Number) } }));
        invalidateAccess();
        return 'گروه‌های کاربر ذخیره شد.';
      },
      { done: onClose, timeout: USER_MODULE_TIMEOUT },
    );

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(480px, 92vw)">
        <Dialog.Title>گروه‌های «{user.name}»</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          {user.isStaff
            ? 'کاربر دسترسی‌های همه گروه‌های انتخاب‌شده را دارد.'
            : 'این کاربر کارمند نیست؛ تا کارمند نشود، دسترسی گروه‌ها به او نمی‌رسد.'}
        </Dialog.Description>
        {groups.isPending && <Text color="gray">در حال بارگذاری...</Text>}
        {groups.isError && (
          <Callout.Root color="red">
            <Callout.Text>{digMessage(groups.error) ?? FALLBACK_MESSAGE}</Callout.Text>
          </Callout.Root>
        )}
        {groups.data && (
          <CheckboxGroup.Root value={chosen} onValueChange={setChosen} aria-label="گروه‌ها">
            {groups.data.items.map((g) => (
              <CheckboxGroup.Item key={g.id} value={String(g.id)}>
                {g.title}{' '}
                <Text color="gray" size="1" className="ltr">
                  ({g.name})
                </Text>
              </CheckboxGroup.Item>
            ))}
          </CheckboxGroup.Root>
        )}
        <DialogActions
          error={error}
          busy={busy !== null}
          submitDisabled={!groups.data}
          onSubmit={() => save()}
          submitLabel="ذخیره گروه‌ها"
          mt="4"
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
