/**
 * Staff notes kept on a user (the contract's metaData: up to 50 named values). Shown as name/value rows a
 * person can add, change and remove; a value left as it was keeps its type (number, yes/no), a typed one is text.
 */
import { PlusIcon, TrashIcon } from '@radix-ui/react-icons';
import { Button, Callout, Dialog, Flex, IconButton, Text, TextField } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { USER_MODULE_TIMEOUT } from '../../../components/shell/snackbar';
import { useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import type { UserSummary } from './queries';

type Value = string | number | boolean;
interface Row {
  id: number;
  key: string;
  text: string;
  original?: Value;
}

const MAX_NOTES = 50;
const shown = (v: Value) => (typeof v === 'boolean' ? (v ? 'بله' : 'خیر') : String(v));
let nextRowId = 1;

export function UserNotesDialog({ user, onClose }: { user: UserSummary; onClose: () => void }) {
  const notes = useQuery({
    queryKey: ['access', 'metaData', user.id],
    queryFn: () => call<Record<string, Value>>(api.POST('/api/users/getMetaData', { body: { id: user.id } })),
    // Read afresh each time the dialog opens: the rows are edited from what the server holds now.
    gcTime: 0,
    staleTime: 0,
  });
  const [rows, setRows] = useState<Row[] | null>(null);
  const { busy, error, run } = useDialogAction();

  useEffect(() => {
    if (notes.data && rows === null) {
      setRows(Object.entries(notes.data).map(([key, v]) => ({ id: nextRowId++, key, text: shown(v), original: v })));
    }
  }, [notes.data, rows]);

  const update = (id: number, patch: Partial<Row>) =>
    setRows((rs) => rs!.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const keys = (rows ?? []).map((r) => r.key.trim());
  const problem = keys.some((k) => !k)
    ? 'نام هر یادداشت را بنویسید.'
    : new Set(keys).size !== keys.length
      ? 'نام یادداشت‌ها باید متفاوت باشد.'
      : keys.some((k) => k.length > 50) || (rows ?? []).some((r) => r.text.length > 1000)
        ? 'نام یادداشت حداکثر ۵۰ و متن آن حداکثر ۱۰۰۰ حرف است.'
        : null;

  const save = () => {
    if (!rows || problem) return;
    const metaData = Object.fromEntries(
      rows.map((r) => [r.key.trim(), r.original !== undefined && r.text === shown(r.original) ? r.original : r.text]),
    );
    void run(
      async () => {
        await call(api.POST('/api/users/saveUserMetaData', { body: { id: user.id, metaData } }));
        return 'یادداشت‌ها ذخیره شد.';
      },
      { done: onClose, timeout: USER_MODULE_TIMEOUT },
    );
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="min(600px, 94vw)">
        <Dialog.Title>یادداشت‌های «{user.name}»</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          یادداشت‌هایی که فقط کارمندان می‌بینند، هر کدام با یک نام (مثلا «شیفت» یا «داخلی»).
        </Dialog.Description>
        {notes.isPending && <Text color="gray">در حال بارگذاری...</Text>}
        {notes.isError && (
          <Callout.Root color="red">
            <Callout.Text>{digMessage(notes.error) ?? FALLBACK_MESSAGE}</Callout.Text>
          </Callout.Root>
        )}
        {rows && (
          <Flex direction="column" gap="2">
            {rows.length === 0 && <Text color="gray">یادداشتی ثبت نشده است.</Text>}
            {rows.map((r, i) => (
              <Flex key={r.id} gap="2" align="center" wrap="wrap">
                <TextField.Root
                  value={r.key}
                  placeholder="نام"
                  aria-label={`نام یادداشت ${i + 1}`}
                  onChange={(e) => update(r.id, { key: e.target.value })}
                  style={{ flex: '1 1 120px' }}
                />
                <TextField.Root
                  value={r.text}
                  placeholder="متن"
                  aria-label={`متن یادداشت ${i + 1}`}
                  onChange={(e) => update(r.id, { text: e.target.value })}
                  style={{ flex: '2 1 180px' }}
                />
                <IconButton
                  variant="soft"
                  color="red"
                  aria-label={`حذف یادداشت ${r.key || i + 1}`}
                  onClick={() => setRows((rs) => rs!.filter((x) => x.id !== r.id))}
                >
                  <TrashIcon />
                </IconButton>
              </Flex>
            ))}
            <div>
              <Button
                variant="soft"
                disabled={rows.length >= MAX_NOTES}
                onClick={() => setRows((rs) => [...rs!, { id: nextRowId++, key: '', text: '' }])}
              >
                <PlusIcon /> یادداشت تازه
              </Button>
            </div>
            {problem && (
              <Text size="1" color="red" role="alert">
                {problem}
              </Text>
            )}
          </Flex>
        )}
        <DialogActions
          error={error}
          busy={busy !== null}
          submitDisabled={!rows || Boolean(problem)}
          onSubmit={() => save()}
          submitLabel="ذخیره یادداشت‌ها"
          mt="4"
        />
      </Dialog.Content>
    </Dialog.Root>
  );
}
