/**
 * The file fields' widget as the theme registers it (`imageUpload`, `fileUpload`, rjsf's FileWidget): the picker
 * itself (FileUploadWidget.tsx) is loaded when a form draws a file field, not with every form.
 */
import { Spinner } from '@radix-ui/themes';
import type { WidgetProps } from '@rjsf/utils';
import { lazy, Suspense } from 'react';

const FileUploadWidget = lazy(() => import('./FileUploadWidget'));

export function ImageUploadWidget(props: WidgetProps) {
  return (
    <Suspense fallback={<Spinner />}>
      <FileUploadWidget {...props} />
    </Suspense>
  );
}
