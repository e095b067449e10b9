/** One image, uploaded at once through api/me/uploadFile, with a preview from the signed URL. */
import { UploadIcon } from '@radix-ui/react-icons';
import { Button, Flex, Text } from '@radix-ui/themes';
import { useEffect, useRef, useState } from 'react';
import { api, call, digMessage, FALLBACK_MESSAGE, TOKEN_KEY } from '../../lib/api-client';

const ACCEPT = 'image/jpeg,image/png,image/webp';

export function CardImageUpload({
  path,
  onUploaded,
  disabled,
}: {
  path: string;
  onUploaded: (path: string) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!path || preview) return;
    call<{ url: string }>(api.POST('/api/me/fileUrl', { body: { path } }))
      .then((d) => setPreview(d.url))
      .catch(() => setPreview(null));
  }, [path, preview]);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!ACCEPT.split(',').includes(file.type)) {
      setError('امکان انتخاب عکس وجود ندارد.');
      return;
    }
    setBusy(true);
    setError(null);
    const form = new FormData();
    form.set('filePrefix', 'nationalCard');
    form.set('attached_file', file);
    try {
      // Multipart goes through fetch directly; the JSON client does not encode files.
      const token = localStorage.getItem(TOKEN_KEY);
      const res = await fetch('/api/me/uploadFile', {
        method: 'POST',
        headers: { 'X-Requested-With': 'XMLHttpRequest', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: form,
      });
      const body = (await res.json()) as { result: boolean; msg: string; path?: string; url?: string };
      if (!res.ok || !body.result || !body.path) throw body;
      setPreview(body.url ?? null);
      onUploaded(body.path);
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Flex direction="column" gap="2">
      {preview && (
        <img
          src={preview}
          alt="تصویر کارت ملی"
          data-testid="card-preview"
          style={{ maxWidth: 280, width: '100%', borderRadius: 8, border: '1px solid var(--gray-6)' }}
        />
      )}
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="card-file"
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      {!disabled && (
        <Button
          type="button"
          variant="soft"
          onClick={() => input.current?.click()}
          loading={busy}
          style={{ alignSelf: 'flex-start' }}
        >
          <UploadIcon /> {path ? 'تغییر تصویر کارت ملی' : 'بارگذاری تصویر کارت ملی'}
        </Button>
      )}
      {error && (
        <Text size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}
