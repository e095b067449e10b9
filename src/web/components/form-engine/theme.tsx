/**
 * The Radix theme for rjsf, right to left: every widget and template rjsf can ask for (the templates in
 * templates.tsx), plus the project's own widgets by name (`ui:widget`). tests/unit/form-theme.test.ts fails when
 * rjsf's default registry has a widget or template this theme does not provide.
 */

import { Flex, Text } from '@radix-ui/themes';
import { withTheme } from '@rjsf/core';
import type { FieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { FieldDescription } from './FieldDescription';
import { templates as baseTemplates, DescriptionFieldTemplate, TitleFieldTemplate } from './templates';
import { AmountWidget } from './widgets/AmountWidget';
import { CheckboxesWidget, RadioWidget, RatingWidget, SelectWidget } from './widgets/ChoiceWidgets';
import { CheckboxWidget } from './widgets/CheckboxWidget';
import { JalaliDateWidget } from './widgets/DateWidgets';
import {
  ColorWidget,
  DateTimeWidget,
  HiddenWidget,
  RangeWidget,
  TimeWidget,
  UpDownWidget,
  URLWidget,
} from './widgets/InputWidgets';
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
  rawDescription,
  uiSchema,
}: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  // A group or a list draws its own title; its errors (too few rows) follow it.
  if (schema.type === 'object' || (schema.type === 'array' && !displayLabel))
    return (
      <Flex direction="column" gap="2" data-field={id.replace(/^[^_]+_/, '')}>
        {children}
        {(rawErrors ?? []).map((error) => (
          <Text key={error} size="1" color="red" role="alert">
            {error}
          </Text>
        ))}
      </Flex>
    );
  return (
    <Flex direction="column" gap="1" data-field={id.replace(/^[^_]+_/, '')}>
      {displayLabel && (
        <label htmlFor={id}>
          <Text size="2" weight="medium">
            {label}
            {required && (
              <>
                <Text color="red" aria-hidden>
                  {' *'}
                </Text>
                <span className="visually-hidden"> (الزامی)</span>
              </>
            )}
          </Text>
        </label>
      )}
      {displayLabel && (
        <FieldDescription
          id={id}
          description={rawDescription}
          markdown={uiSchema?.['ui:enableMarkdownInDescription'] === true}
        />
      )}
      {children}
      {rawHelp && (
        <Text size="1" color="gray">
          {rawHelp}
        </Text>
      )}
      {/* The error line's space is kept while there is none, so an error appearing moves nothing under a tap. */}
      <div className="error-slot">
        {(rawErrors ?? []).map((error) => (
          <Text key={error} as="div" size="1" color="red" role="alert">
            {error}
          </Text>
        ))}
      </div>
    </Flex>
  );
}

/**
 * The form's fields in one column, without rjsf's default fieldset frame. Fields whose `ui:options` say `half`
 * share a row two by two where there is room (first and last name), and stack on a phone.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, fieldPathId, title, description, required, registry } = props;
  const fields = <ObjectFields properties={properties} uiSchema={uiSchema} />;
  // The form itself and a list's row (whose card says which row) need no frame of their own.
  if (fieldPathId.path.length === 0 || typeof fieldPathId.path.at(-1) === 'number') return fields;
  // A group (a nested object, a list's row): its title and description above its fields, in a frame.
  const label = (uiSchema?.['ui:title'] as string | undefined) ?? title;
  return (
    <Flex
      direction="column"
      gap="3"
      role="group"
      aria-labelledby={label ? `${fieldPathId.$id}__title` : undefined}
      style={{ borderInlineStart: '2px solid var(--gray-a5)', paddingInlineStart: 'var(--space-3)' }}
    >
      {label && (
        <TitleFieldTemplate
          id={`${fieldPathId.$id}__title`}
          title={label}
          required={required}
          schema={props.schema}
          registry={registry}
          {...(props.optionalDataControl ? { optionalDataControl: props.optionalDataControl } : {})}
        />
      )}
      {description && (
        <DescriptionFieldTemplate
          id={`${fieldPathId.$id}__description`}
          description={description}
          schema={props.schema}
          registry={registry}
        />
      )}
      {fields}
    </Flex>
  );
}

function ObjectFields({ properties, uiSchema }: Pick<ObjectFieldTemplateProps, 'properties' | 'uiSchema'>) {
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
  // rjsf's own names, each drawn by the theme.
  AltDateTimeWidget: DateTimeWidget,
  AltDateWidget: JalaliDateWidget,
  CheckboxesWidget,
  ColorWidget,
  DateTimeWidget,
  DateWidget: JalaliDateWidget,
  FileWidget: ImageUploadWidget,
  HiddenWidget,
  RangeWidget,
  RatingWidget,
  SelectWidget,
  TimeWidget,
  URLWidget,
  UpDownWidget,
  select: SelectWidget,
  checkboxes: CheckboxesWidget,
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
  fileUpload: ImageUploadWidget,
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

export const themeTemplates: Partial<TemplatesType> = {
  ...baseTemplates,
  FieldTemplate,
  ObjectFieldTemplate,
  // Errors are shown under each field and beside the page's own submit button.
  ErrorListTemplate: () => null,
};

export const themeWidgets = widgets;

export const RadixForm = withTheme({ widgets, templates: themeTemplates });
