/**
 * A desk form's file field (`ui:widget: "fileUpload"` or `"imageUpload"`), drawn as FilePicker's drop area: it says
 * what the field takes from the schema's `x-file` («PDF، JPEG یا PNG، حداکثر ۵ مگابایت، تا ۳ فایل»), sends each
 * chosen file at once for this desk and field (the server applies the field's limits to the bytes), shows the
 * upload's progress, and names a refused file with the reason in Persian: first the picker's own check of the name
 * and size (for speed), then the server's answer (the truth). The field keeps the stored paths joined by '|'. The
 * file input is `<id>-file`; each attached file is a row with a remove button.
 */
import { Cross2Icon, FileIcon, UploadIcon } from '@radix-ui/react-icons';
import { Button, Flex, IconButton, Text } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { type DragEvent, useRef, useState } from 'react';
import { toPersianDigits } from '../../../../shared/digits';
import { type FileLimits, pathsOf, typeOfName } from '../../../../shared/file-fields';
import { acceptOf, describeLimits, fileLimitsOf, MAX_FILE_BYTES, precheckFile } from '../../../../shared/file-limits';
import { formatFileSize } from '../../../../shared/format';
import { digMessage, FALLBACK_MESSAGE, TOKEN_KEY } from '../../../lib/api-client';
import { uploadImage } from './upload';

/**
 * Sends one file for a desk form's file field (`desk` and `field` name it, so the server applies that field's
 * declared limits), through XMLHttpRequest so the upload's progress can be shown: `onProgress` gets 0–100. Resolves
 * with the stored path and a signed link; rejects with the server's Persian message (or the fallback).
 */
export function uploadFieldFile(
  file: File,
  target: { desk: string; field: string },
  onProgress: (percent: number) => void,
): Promise<{ path: string; url: string | null }> {
  const form = new FormData();
  form.set('desk', target.desk);
  form.set('field', target.field);
  form.set('attached_file', file);
  const token = localStorage.getItem(TOKEN_KEY);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/me/uploadFile');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => reject(new Error(FALLBACK_MESSAGE));
    xhr.onload = () => {
      let body: { result?: boolean; msg?: string; path?: string; url?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not our envelope (a proxy's page): the fallback below.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.result && body.path) {
        resolve({ path: body.path, url: body.url ?? null });
      } else {
        reject(new Error(body.msg || FALLBACK_MESSAGE));
      }
    };
    xhr.send(form);
  });
}

/** A form drawn without `x-file` (an older published version): images only, as the upload call took before. */
const IMAGES_ONLY: FileLimits = { types: ['jpeg', 'png', 'webp'], maxBytes: MAX_FILE_BYTES, maxFiles: 10 };

interface Attached {
  name: string;
  size: number | null;
  preview: string | null;
}

export default function FileUploadWidget({
  id,
  name,
  value,
  onChange,
  onBlur,
  schema,
  options,
  disabled,
  readonly,
  registry,
}: WidgetProps) {
  const input = useRef<HTMLInputElement>(null);
  const declared = fileLimitsOf(schema);
  const limits = declared ?? IMAGES_ONLY;
  const desk =
    typeof (registry.formContext as { desk?: unknown } | undefined)?.desk === 'string'
      ? (registry.formContext as { desk: string }).desk
      : null;
  const [known, setKnown] = useState<Record<string, Attached>>({});
  const [progress, setProgress] = useState<{ name: string; percent: number | null } | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const paths = pathsOf(value);
  const chooseText = paths.length > 0 ? 'افزودن فایل دیگر' : 'انتخاب فایل';
  const locked = disabled || readonly;

  const send = async (chosen: File[]) => {
    let current = paths;
    setRefused(null);
    for (const file of chosen) {
      const reason = precheckFile(file, limits, current.length);
      if (reason) {
        setRefused(`«${file.name}» پذیرفته نشد: ${reason}`);
        break;
      }
      setProgress({ name: file.name, percent: null });
      try {
        const stored =
          declared && desk
            ? await uploadFieldFile(file, { desk, field: name }, (percent) => setProgress({ name: file.name, percent }))
            : await uploadImage(file, String(options.filePrefix ?? 'requestImage'));
        const isImage = typeOfName(stored.path) !== 'pdf';
        setKnown((k) => ({
          ...k,
          [stored.path]: { name: file.name, size: file.size, preview: isImage ? stored.url : null },
        }));
        current = [...current, stored.path];
        onChange(current.join('|'));
      } catch (e) {
        setRefused(`«${file.name}» پذیرفته نشد: ${digMessage(e) ?? (e as Error).message ?? FALLBACK_MESSAGE}`);
        break;
      } finally {
        setProgress(null);
      }
    }
    if (input.current) input.current.value = '';
    onBlur(id, current.join('|'));
  };

  const dropped = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (!locked && !progress) void send([...e.dataTransfer.files]);
  };

  return (
    <Flex direction="column" gap="2">
      {paths.length > 0 && (
        <Flex direction="column" gap="1" data-testid={`${id}-attached`}>
          {paths.map((p, i) => {
            const file = known[p];
            return (
              <Flex key={p} align="center" gap="2">
                {file?.preview ? (
                  <img
                    src={file.preview}
                    alt=""
                    width={40}
                    height={30}
                    style={{ objectFit: 'cover', borderRadius: 4 }}
                  />
                ) : (
                  <FileIcon aria-hidden />
                )}
                <Text size="2">
                  <bdi className="file-picker-name">
                    {file?.name ?? `پیوست ${toPersianDigits(i + 1)} (${(typeOfName(p) ?? '').toUpperCase()})`}
                  </bdi>
                </Text>
                {file?.size != null && (
                  <Text size="1" color="gray">
                    {formatFileSize(file.size)}
                  </Text>
                )}
                {!locked && (
                  <IconButton
                    type="button"
                    size="1"
                    variant="ghost"
                    color="red"
                    aria-label={`برداشتن ${file?.name ?? 'پیوست'}`}
                    onClick={() => onChange(paths.filter((x) => x !== p).join('|') || undefined)}
                  >
                    <Cross2Icon />
                  </IconButton>
                )}
              </Flex>
            );
          })}
        </Flex>
      )}
      {!locked && (
        <div
          className="file-picker"
          data-over={over || undefined}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={dropped}
        >
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            multiple={limits.maxFiles > 1}
            accept={acceptOf(limits)}
            className="visually-hidden"
            tabIndex={-1}
            aria-label={String(schema.title ?? 'فایل')}
            data-testid={`${id}-file`}
            onChange={(e) => void send([...(e.target.files ?? [])])}
          />
          <Flex direction="column" gap="1" style={{ flex: '1 1 12rem' }}>
            <Text size="2" color="gray" data-testid={`${id}-accepts`}>
              {describeLimits(limits)}
            </Text>
            {progress && (
              <Flex direction="column" gap="1" role="status">
                <Text size="1">
                  در حال بارگذاری <bdi className="file-picker-name">{progress.name}</bdi>
                  {progress.percent !== null && `… ${toPersianDigits(progress.percent)}٪`}
                </Text>
                {progress.percent !== null && (
                  <progress max={100} value={progress.percent} aria-hidden style={{ width: '100%' }} />
                )}
              </Flex>
            )}
          </Flex>
          <Button
            id={id}
            type="button"
            variant="soft"
            loading={progress !== null}
            disabled={paths.length >= limits.maxFiles}
            onClick={() => input.current?.click()}
            // Its name says what a person sees on it, then the field's (the label names the field only).
            aria-label={`${chooseText}: ${String(schema.title ?? 'فایل')}`}
          >
            <UploadIcon /> {chooseText}
          </Button>
        </div>
      )}
      {refused && (
        <Text size="1" color="red" role="alert" data-testid={`${id}-refused`}>
          {refused}
        </Text>
      )}
    </Flex>
  );
}
