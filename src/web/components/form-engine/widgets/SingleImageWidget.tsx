import { UploadIcon } from '@radix-ui/react-icons';
import { Button, Flex, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { IMAGE_TYPES, NOT_AN_IMAGE, NOT_AN_IMAGE_OR_PDF, uploadImage } from './upload';

/**
 * One image (`ui:widget: "singleImage"`, as the national card): uploaded at once, shown from its signed link (a
 * stored path is looked up through api/me/fileUrl); the field keeps the stored path. Its options name the file
 * prefix, the picture's alt text and the button's two labels; `allowPdf` takes a PDF too (a merchant's
 * confirmation), shown as a line naming it rather than a picture. The file input is `<id>-file`, the picture
 * `<id>-preview`. Read-only or disabled, only the picture shows.
 */
export function SingleImageWidget({ id, value, onChange, onBlur, options, disabled, readonly }: WidgetProps) {
  const input = useRef<HTMLInputElement>(null);
  const path = typeof value === 'string' ? value : '';
  const allowPdf = options.allowPdf === true;
  const types = allowPdf ? [...IMAGE_TYPES, 'application/pdf'] : IMAGE_TYPES;
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
    if (!types.includes(file.type)) {
      setError(allowPdf ? NOT_AN_IMAGE_OR_PDF : NOT_AN_IMAGE);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const uploaded = await uploadImage(file, String(options.filePrefix ?? 'image'));
      setPreview(uploaded.url);
      onChange(uploaded.path);
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
      onBlur(id, value);
    }
  };

  return (
    <Flex direction="column" gap="2">
      {preview && path.endsWith('.pdf') ? (
        <Text size="2" data-testid={`${id}-pdf`}>
          فایل PDF بارگذاری شد.
        </Text>
      ) : (
        preview && (
          <img
            src={preview}
            alt={String(options.alt ?? '')}
            data-testid={`${id}-preview`}
            style={{ maxWidth: 280, width: '100%', borderRadius: 8, border: '1px solid var(--gray-6)' }}
          />
        )
      )}
      <input
        ref={input}
        type="file"
        accept={types.join(',')}
        hidden
        data-testid={`${id}-file`}
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      {!disabled && !readonly && (
        <Button
          id={id}
          type="button"
          variant="soft"
          onClick={() => input.current?.click()}
          loading={busy}
          style={{ alignSelf: 'flex-start' }}
        >
          <UploadIcon /> {String((path ? options.changeLabel : options.uploadLabel) ?? 'بارگذاری تصویر')}
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
