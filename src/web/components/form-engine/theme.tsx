/** The Radix theme for rjsf: small widgets gathered in one map, RTL field template, no error list. */

import { Flex, Text } from '@radix-ui/themes';
import { withTheme } from '@rjsf/core';
import type { FieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { AmountWidget } from './widgets/AmountWidget';
import { CheckboxWidget } from './widgets/CheckboxWidget';
import { JalaliDateWidget, RadioWidget } from './widgets/DateWidgets';
import { ImageUploadWidget } from './widgets/ImageUploadWidget';
import { NationalCodeWidget } from './widgets/NationalCodeWidget';
import { PasswordWidget } from './widgets/PasswordWidget';
import {
  ChoiceSelectWidget,
  CurrencySelectWidget,
  GoogleAdsAccountSelectWidget,
  PaymentMethodGroupSelectWidget,
} from './widgets/SelectWidgets';
import { SingleImageWidget } from './widgets/SingleImageWidget';
import { TextareaWidget } from './widgets/TextareaWidget';
import { EmailWidget, TextWidget } from './widgets/TextWidget';

function FieldTemplate({
  id,
  label,
  required,
  children,
  rawErrors,
  rawHelp,
  hidden,
  displayLabel,
  schema,
}: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  if (schema.type === 'object')
    return (
      <Flex direction="column" gap="4">
        {children}
      </Flex>
    );
  return (
    <Flex direction="column" gap="1" data-field={id.replace(/^[^_]+_/, '')}>
      {displayLabel && (
        <label htmlFor={id}>
          <Text size="2" weight="medium">
            {label}
            {required && (
              <Text color="red" aria-hidden>
                {' *'}
              </Text>
            )}
          </Text>
        </label>
      )}
      {children}
      {rawHelp && (
        <Text size="1" color="gray">
          {rawHelp}
        </Text>
      )}
      {(rawErrors ?? []).map((error) => (
        <Text key={error} size="1" color="red" role="alert">
          {error}
        </Text>
      ))}
    </Flex>
  );
}

/**
 * The form's fields in one column, without rjsf's default fieldset frame. Fields whose `ui:options` say `half`
 * share a row two by two where there is room (first and last name), and stack on a phone.
 */
function ObjectFieldTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const half = (name: string) =>
    Boolean((uiSchema?.[name] as { 'ui:options'?: { half?: boolean } } | undefined)?.['ui:options']?.half);
  const rows: Array<typeof properties> = [];
  for (const p of properties) {
    const last = rows.at(-1);
    if (half(p.name) && last?.length === 1 && half(last[0]!.name)) last.push(p);
    else rows.push([p]);
  }
  return (
    <Flex direction="column" gap="4">
      {rows.map((row) =>
        row.length === 1 ? (
          <div key={row[0]!.name} hidden={row[0]!.hidden}>
            {row[0]!.content}
          </div>
        ) : (
          <Flex key={row[0]!.name} gap="4" wrap="wrap">
            {row.map((p) => (
              <div key={p.name} hidden={p.hidden} style={{ flex: '1 1 200px' }}>
                {p.content}
              </div>
            ))}
          </Flex>
        ),
      )}
    </Flex>
  );
}

const widgets: RegistryWidgetsType = {
  TextWidget,
  EmailWidget,
  TextareaWidget,
  textarea: TextareaWidget,
  amount: AmountWidget,
  currencySelect: CurrencySelectWidget,
  paymentMethodGroupSelect: PaymentMethodGroupSelectWidget,
  googleAdsAccountSelect: GoogleAdsAccountSelectWidget,
  choiceSelect: ChoiceSelectWidget,
  imageUpload: ImageUploadWidget,
  PasswordWidget,
  password: PasswordWidget,
  jalaliDate: JalaliDateWidget,
  CheckboxWidget,
  checkbox: CheckboxWidget,
  nationalCode: NationalCodeWidget,
  singleImage: SingleImageWidget,
  RadioWidget,
  radio: RadioWidget,
};

const templates: Partial<TemplatesType> = {
  FieldTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: () => null,
  ButtonTemplates: { SubmitButton: () => null } as unknown as TemplatesType['ButtonTemplates'],
};

export const RadixForm = withTheme({ widgets, templates });
