/** Every string rjsf itself shows goes through this Persian translator. */
import { englishStringTranslator, TranslatableString } from '@rjsf/utils';

const PERSIAN: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddItemButton]: 'افزودن',
  [TranslatableString.RemoveButton]: 'حذف',
  [TranslatableString.ErrorsLabel]: 'خطاها',
  [TranslatableString.NewStringDefault]: 'مقدار جدید',
  [TranslatableString.YesLabel]: 'بله',
  [TranslatableString.NoLabel]: 'خیر',
  [TranslatableString.UnsupportedField]: 'این نوع فیلد پشتیبانی نمی‌شود.',
  [TranslatableString.OptionalObjectAdd]: 'افزودن',
};

export function persianTranslator(key: TranslatableString, params?: string[]): string {
  return PERSIAN[key] ?? englishStringTranslator(key, params);
}
