/**
 * Choosing one file, drawn in the product's own words instead of the browser's «Choose File / No file chosen»: a
 * drop area with a «انتخاب فایل» button, and once chosen the file's name and size in Persian with a way to clear it.
 * The real input stays in the page (visually hidden, labelled by the caller's label) so the label, a test's
 * `setInputFiles` and the browser's own file chooser all keep working; the button is what keyboard users reach.
 */
import { Cross2Icon, FileIcon, UploadIcon } from '@radix-ui/react-icons';
import { Button, Flex, IconButton, Text } from '@radix-ui/themes';
import { forwardRef, useImperativeHandle, useRef, useState, type DragEvent } from 'react';
import { formatFileSize } from '../../shared/format';

interface FilePickerProps {
  /** The input's id: the caller's `<label htmlFor>` names it. */
  id: string;
  /** What the input accepts (`accept` attribute); also the text under the button. */
  accept: string;
  /** The kinds in words, shown in the drop area («CSV یا xlsx»). */
  kinds: string;
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  testId?: string;
}

/** `clear()` empties the input after the caller sent the file, so choosing the same file again is a change. */
export interface FilePickerHandle {
  clear: () => void;
}

export const FilePicker = forwardRef<FilePickerHandle, FilePickerProps>(function FilePicker(
  { id, accept, kinds, file, onChange, disabled, testId },
  ref,
) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const clear = () => {
    if (input.current) input.current.value = '';
    onChange(null);
  };
  useImperativeHandle(ref, () => ({ clear }));

  const dropped = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    const first = e.dataTransfer.files[0];
    if (first) onChange(first);
  };

  return (
    <div
      className="file-picker"
      data-over={over || undefined}
      data-testid={testId ? `${testId}-picker` : undefined}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={dropped}
    >
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        className="visually-hidden"
        tabIndex={-1}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => onChange(e.target.files?.[0] ?? null)}
      />
      {file ? (
        <Flex align="center" gap="2" data-testid={testId ? `${testId}-chosen` : undefined}>
          <FileIcon aria-hidden />
          <Text size="2" weight="medium">
            <bdi className="file-picker-name">{file.name}</bdi>
          </Text>
          <Text size="1" color="gray">
            {formatFileSize(file.size)}
          </Text>
          <IconButton
            type="button"
            size="1"
            variant="ghost"
            color="gray"
            aria-label="برداشتن فایل"
            disabled={disabled}
            onClick={clear}
          >
            <Cross2Icon />
          </IconButton>
        </Flex>
      ) : (
        <Text size="2" color="gray">
          فایل {kinds} را اینجا رها کنید، یا
        </Text>
      )}
      <Button
        type="button"
        variant="soft"
        disabled={disabled}
        onClick={() => input.current?.click()}
        data-testid={testId ? `${testId}-choose` : undefined}
      >
        <UploadIcon /> {file ? 'انتخاب فایل دیگر' : 'انتخاب فایل'}
      </Button>
    </div>
  );
});
