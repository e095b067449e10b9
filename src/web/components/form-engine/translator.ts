/**
 * Every string rjsf itself shows goes through this Persian translator: each of rjsf's `TranslatableString`s has
 * its Persian text here (tests/unit/form-theme.test.ts fails on one without), `%1`, `%2` filled from `params`.
 */
import { replaceStringParameters, TranslatableString } from '@rjsf/utils';

export const PERSIAN: Record<TranslatableString, string> = {
  [TranslatableString.ArrayItemTitle]: 'ردیف',
  [TranslatableString.MissingItems]: 'تعریف ردیف‌های این فهرست کامل نیست.',
  [TranslatableString.EmptyArray]: 'هنوز موردی افزوده نشده است. با دکمه زیر یکی بیفزایید.',
  [TranslatableString.YesLabel]: 'بله',
  [TranslatableString.NoLabel]: 'خیر',
  [TranslatableString.CloseLabel]: 'بستن',
  [TranslatableString.ErrorsLabel]: 'خطاها',
  [TranslatableString.NewStringDefault]: 'مقدار جدید',
  [TranslatableString.AddButton]: 'افزودن',
  [TranslatableString.AddItemButton]: 'افزودن ردیف',
  [TranslatableString.CopyButton]: 'رونوشت ردیف',
  [TranslatableString.ExpandButton]: 'باز کردن',
  [TranslatableString.MoveDownButton]: 'انتقال به پایین',
  [TranslatableString.MoveUpButton]: 'انتقال به بالا',
  [TranslatableString.RemoveButton]: 'حذف ردیف',
  [TranslatableString.NowLabel]: 'اکنون',
  [TranslatableString.ClearLabel]: 'پاک کردن',
  [TranslatableString.AriaDateLabel]: 'انتخاب تاریخ',
  [TranslatableString.PreviewLabel]: 'پیش‌نمایش',
  [TranslatableString.DecrementAriaLabel]: 'یکی کمتر',
  [TranslatableString.IncrementAriaLabel]: 'یکی بیشتر',
  [TranslatableString.OptionalObjectAdd]: 'افزودن اطلاعات این بخش',
  [TranslatableString.OptionalObjectRemove]: 'حذف اطلاعات این بخش',
  [TranslatableString.OptionalObjectEmptyMsg]: 'اطلاعاتی برای این بخش وارد نشده است.',
  [TranslatableString.Type]: 'نوع',
  [TranslatableString.Value]: 'مقدار',
  [TranslatableString.ClearButton]: 'پاک کردن',
  [TranslatableString.UnknownFieldType]: 'نوع فیلد «%1» شناخته نیست.',
  [TranslatableString.OptionPrefix]: 'گزینه %1',
  [TranslatableString.TitleOptionPrefix]: '%1، گزینه %2',
  [TranslatableString.KeyLabel]: 'کلید %1',
  [TranslatableString.DeprecatedLabel]: '%1 (منسوخ)',
  [TranslatableString.CycleDetected]: 'ارجاع چرخشی در فیلد «%1»؛ برای باز کردن مرحله بعد، دکمه باز کردن را بزنید.',
  [TranslatableString.InvalidObjectField]: 'پیکربندی فیلد «%1» معتبر نیست: %2',
  [TranslatableString.UnsupportedField]: 'این نوع فیلد پشتیبانی نمی‌شود.',
  [TranslatableString.UnsupportedFieldWithId]: 'نوع فیلد «%1» پشتیبانی نمی‌شود.',
  [TranslatableString.UnsupportedFieldWithReason]: 'این نوع فیلد پشتیبانی نمی‌شود: %1',
  [TranslatableString.UnsupportedFieldWithIdAndReason]: 'نوع فیلد «%1» پشتیبانی نمی‌شود: %2',
  [TranslatableString.FilesInfo]: '%1 (%2، %3 بایت)',
};

export function persianTranslator(key: TranslatableString, params?: string[]): string {
  return replaceStringParameters(PERSIAN[key], params);
}
