import { Cross2Icon, UploadIcon } from '@radix-ui/react-icons';
import { Button, Flex, IconButton, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { useRef, useState } from 'react';
import { digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { IMAGE_TYPES, NOT_AN_IMAGE, uploadImage } from './upload';

/** One image per pick, uploaded at once; the field keeps the stored paths joined by '|'. */
export function ImageUploadWidget({ id, value, onChange, options, disabled }: WidgetProps) {
  const input = useRef<HTMLInputElement>(null);
  const [previews, setPreviews] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paths = String(value ?? '')
    .split('|')
    .filter(Boolean);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      setError(NOT_AN_IMAGE);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { path, url } = await uploadImage(file, String(options.filePrefix ?? 'requestImage'));
      setPreviews((p) => ({ ...p, [path]: url ?? '' }));
      onChange([...paths, path].join('|'));
    } catch (e) {
      setError(digMessage(e) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Flex direction="column" gap="2" id={id}>
      <Flex gap="2" wrap="wrap">
        {paths.map((p) => (
          <Flex key={p} direction="column" align="center" gap="1">
            {previews[p] ? (
              <img src={previews[p]} alt="" width={96} height={72} style={{ objectFit: 'cover', borderRadius: 6 }} />
            ) : (
              <Text size="1">تصویر</Text>
            )}
            <IconButton
              type="button"
              size="1"
              variant="soft"
              color="red"
              aria-label="حذف تصویر"
              onClick={() => onChange(paths.filter((x) => x !== p).join('|') || undefined)}
            >
              <Cross2Icon />
            </IconButton>
          </Flex>
        ))}
      </Flex>
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        hidden
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      <Button
        type="button"
        variant="soft"
        disabled={disabled}
        loading={busy}
        onClick={() => input.current?.click()}
        style={{ alignSelf: 'flex-start' }}
      >
        <UploadIcon /> افزودن تصویر
      </Button>
      {error && (
        <Text size="1" color="red" role="alert">
          {error}
        </Text>
      )}
    </Flex>
  );
}
