/**
 * Uploading a statement file for the daily reconciliation (decision 026): the format chosen from the mappings in
 * schemas/reconciliation/statements, one CSV or xlsx file, sent to uploadReconciliationStatement. A refusal shows the
 * server's Persian message (the missing column, or each bad line's number) under the form; success names the days
 * the file covers, which `onUploaded` receives so the page can run them again. Mounted by the reconciliation page.
 */
import { UploadIcon } from '@radix-ui/react-icons';
import { Button, Callout, Card, Flex, Heading, Select, Text } from '@radix-ui/themes';
import { useRef, useState } from 'react';
import { FilePicker, type FilePickerHandle } from '../../../components/FilePicker';
import { showSnackbar } from '../../../components/shell/snackbar';
import { TOKEN_KEY } from '../../../lib/api-client';
import { STATEMENT_FORMATS } from './statement-formats';

const FORMATS = STATEMENT_FORMATS;
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface Uploaded {
  added: number;
  alreadyStored: number;
  skipped: number;
  days: string[];
}

async function send(statement: string, file: File): Promise<{ msg: string; data: Uploaded }> {
  const form = new FormData();
  form.set('statement', statement);
  form.set('attached_file', file);
  const token = localStorage.getItem(TOKEN_KEY);
  const res = await fetch('/api/sys/uploadReconciliationStatement', {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as { result?: boolean; msg?: string; data?: Uploaded };
  if (!res.ok || !body.result || !body.data) throw new Error(body.msg || 'بارگذاری صورت‌حساب انجام نشد.');
  return { msg: body.msg ?? '', data: body.data };
}

export function StatementUpload({ onUploaded }: { onUploaded?: (days: string[]) => void }) {
  const [statement, setStatement] = useState(FORMATS[0]!.name);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const picker = useRef<FilePickerHandle>(null);

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const done = await send(statement, file);
      showSnackbar(done.msg, 'green');
      picker.current?.clear();
      onUploaded?.(done.data.days);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="statement-upload">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="3">
          بارگذاری صورت‌حساب
        </Heading>
        <Flex gap="3" wrap="wrap" align="end">
          <Flex direction="column" gap="1">
            <Text as="label" size="2" id="statement-format-label">
              نوع صورت‌حساب
            </Text>
            <Select.Root value={statement} onValueChange={setStatement}>
              <Select.Trigger aria-labelledby="statement-format-label" data-testid="statement-format" />
              <Select.Content>
                {FORMATS.map((f) => (
                  <Select.Item key={f.name} value={f.name}>
                    {f.title}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column" gap="1">
            <Text as="label" size="2" htmlFor="statement-file">
              فایل CSV یا xlsx (حداکثر ۵ مگابایت)
            </Text>
            <FilePicker
              ref={picker}
              id="statement-file"
              accept={ACCEPT}
              kinds="CSV یا xlsx"
              file={file}
              disabled={busy}
              testId="statement-file"
              onChange={(chosen) => {
                setFile(chosen);
                setError(null);
              }}
            />
          </Flex>
          <Button onClick={() => void upload()} loading={busy} disabled={!file} data-testid="statement-send">
            <UploadIcon /> بارگذاری
          </Button>
        </Flex>
        {error && (
          <Callout.Root color="red" size="1" role="alert" data-testid="statement-error">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}
