/** The Radix theme for rjsf: small widgets gathered in one map, RTL field template, no error list. */

import { Flex, Text } from '@radix-ui/themes';
import { withTheme } from '@rjsf/core';
import type { FieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { AmountWidget } from './widgets/AmountWidget';
import { JalaliDateWidget, RadioWidget } from './widgets/DateWidgets';
import { ImageUploadWidget } from './widgets/ImageUploadWidget';
import { PasswordWidget } from './widgets/PasswordWidget';
import {
  CurrencySelectWidget,
  GoogleAdsAccountSelectWidget,
  PaymentMethodGroupSelectWidget,
} from './widgets/SelectWidgets';
import { TextareaWidget } from './widgets/TextareaWidget';
import { TextWidget } from './widgets/TextWidget';

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
    <Flex direction="column" gap="1" data-field={id.replace(/^root_/, '')}>
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

/** The form's fields in one column, without rjsf's default fieldset frame. */
function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return (
    <Flex direction="column" gap="4">
      {properties.map((p) => (
        <div key={p.name} hidden={p.hidden}>
          {p.content}
        </div>
      ))}
    </Flex>
  );
}

const widgets: RegistryWidgetsType = {
  TextWidget,
  TextareaWidget,
  textarea: TextareaWidget,
  amount: AmountWidget,
  currencySelect: CurrencySelectWidget,
  paymentMethodGroupSelect: PaymentMethodGroupSelectWidget,
  googleAdsAccountSelect: GoogleAdsAccountSelectWidget,
  imageUpload: ImageUploadWidget,
  PasswordWidget,
  password: PasswordWidget,
  jalaliDate: JalaliDateWidget,
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
