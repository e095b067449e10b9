/**
 * Every template rjsf can ask for, in Radix and right to left: lists (a card per row with its move, copy and
 * remove buttons, the add button under them), groups (a titled frame), titles, descriptions, help and errors,
 * choices between subschemas, optional groups. Button names are the Persian translator's and each icon button
 * carries it as its aria-label. tests/unit/form-theme.test.ts fails when rjsf has a template this file lacks.
 */
import { ArrowDownIcon, ArrowUpIcon, CopyIcon, Cross2Icon, PlusIcon, TrashIcon } from '@radix-ui/react-icons';
import { Box, Button, Card, Flex, IconButton, Text, TextField } from '@radix-ui/themes';
import {
  type ArrayFieldDescriptionProps,
  type ArrayFieldItemButtonsTemplateProps,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type ArrayFieldTitleProps,
  type BaseInputTemplateProps,
  buttonId,
  type CyclicSchemaExpandProps,
  type DescriptionFieldProps,
  type ErrorListProps,
  type FallbackFieldTemplateProps,
  type FieldErrorProps,
  type FieldHelpProps,
  type GridTemplateProps,
  type IconButtonProps,
  type MultiSchemaFieldTemplateProps,
  type OptionalDataControlsTemplateProps,
  type TemplatesType,
  type TitleFieldProps,
  TranslatableString,
  type UnsupportedFieldProps,
  type WrapIfAdditionalTemplateProps,
} from '@rjsf/utils';
import type { ReactElement } from 'react';

function Title({ id, title, required }: { id: string; title: string | undefined; required?: boolean | undefined }) {
  if (!title) return null;
  return (
    <Text id={id} size="3" weight="bold" as="div">
      {title}
      {required && (
        <>
          <Text color="red" aria-hidden>
            {' *'}
          </Text>
          <span className="visually-hidden"> (الزامی)</span>
        </>
      )}
    </Text>
  );
}

export function TitleFieldTemplate({ id, title, required, optionalDataControl }: TitleFieldProps) {
  return (
    <Flex justify="between" align="center" gap="2">
      <Title id={id} title={title} required={required} />
      {optionalDataControl}
    </Flex>
  );
}

export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Text id={id} size="1" color="gray" as="div">
      {description}
    </Text>
  );
}

export function ArrayFieldTitleTemplate({ fieldPathId, title, required, optionalDataControl }: ArrayFieldTitleProps) {
  return (
    <Flex justify="between" align="center" gap="2">
      <Title id={`${fieldPathId.$id}__title`} title={title} required={required} />
      {optionalDataControl}
    </Flex>
  );
}

export function ArrayFieldDescriptionTemplate({ fieldPathId, description }: ArrayFieldDescriptionProps) {
  if (!description) return null;
  return (
    <Text id={`${fieldPathId.$id}__description`} size="1" color="gray" as="div">
      {description}
    </Text>
  );
}

/** A list: its title, its rows (cards), a note when empty, the add button under them. */
export function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { canAdd, disabled, fieldPathId, items, onAddClick, readonly, registry, required, schema, title, uiSchema } =
    props;
  const { AddButton } = registry.templates.ButtonTemplates;
  const { translateString } = registry;
  const label = (uiSchema?.['ui:title'] as string | undefined) ?? title;
  return (
    <Flex direction="column" gap="3" role="group" aria-labelledby={`${fieldPathId.$id}__title`} id={fieldPathId.$id}>
      <ArrayFieldTitleTemplate
        fieldPathId={fieldPathId}
        title={label}
        required={required}
        schema={schema}
        registry={registry}
        {...(props.optionalDataControl ? { optionalDataControl: props.optionalDataControl } : {})}
      />
      <ArrayFieldDescriptionTemplate
        fieldPathId={fieldPathId}
        description={(uiSchema?.['ui:description'] as string | undefined) ?? schema.description}
        schema={schema}
        registry={registry}
      />
      {items.length === 0 && (
        <Text size="2" color="gray">
          {translateString(TranslatableString.EmptyArray)}
        </Text>
      )}
      <Flex direction="column" gap="3">
        {items}
      </Flex>
      {canAdd && (
        <Box>
          <AddButton
            id={buttonId(fieldPathId, 'add')}
            className="rjsf-array-item-add"
            onClick={onAddClick}
            disabled={disabled || readonly}
            registry={registry}
            {...(label ? { title: label } : {})}
          />
        </Box>
      )}
    </Flex>
  );
}

/** One row of a list: a card with the row's fields and its buttons on top. */
export function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, index, registry } = props;
  const { ArrayFieldItemButtonsTemplate: Buttons } = registry.templates;
  return (
    <Card size="1" data-array-item={index}>
      <Flex direction="column" gap="2">
        {hasToolbar && (
          <Flex justify="between" align="center" gap="2">
            <Text size="2" color="gray">
              {registry.translateString(TranslatableString.ArrayItemTitle)} {(index + 1).toLocaleString('fa-IR')}
            </Text>
            <Flex gap="1">
              <Buttons {...buttonsProps} />
            </Flex>
          </Flex>
        )}
        {children}
      </Flex>
    </Card>
  );
}

export function ArrayFieldItemButtonsTemplate(props: ArrayFieldItemButtonsTemplateProps) {
  const { disabled, hasCopy, hasMoveDown, hasMoveUp, hasRemove, fieldPathId, readonly, registry } = props;
  const { CopyButton, MoveDownButton, MoveUpButton, RemoveButton } = registry.templates.ButtonTemplates;
  const off = disabled || readonly;
  return (
    <>
      {(hasMoveUp || hasMoveDown) && (
        <MoveUpButton
          id={buttonId(fieldPathId, 'moveUp')}
          disabled={off || !hasMoveUp}
          onClick={props.onMoveUpItem}
          registry={registry}
        />
      )}
      {(hasMoveUp || hasMoveDown) && (
        <MoveDownButton
          id={buttonId(fieldPathId, 'moveDown')}
          disabled={off || !hasMoveDown}
          onClick={props.onMoveDownItem}
          registry={registry}
        />
      )}
      {hasCopy && (
        <CopyButton id={buttonId(fieldPathId, 'copy')} disabled={off} onClick={props.onCopyItem} registry={registry} />
      )}
      {hasRemove && (
        <RemoveButton
          id={buttonId(fieldPathId, 'remove')}
          disabled={off}
          onClick={props.onRemoveItem}
          registry={registry}
        />
      )}
    </>
  );
}

/** An icon button named in Persian (its aria-label and tooltip). */
function NamedIconButton({
  name,
  icon,
  color,
  id,
  disabled,
  onClick,
  className,
}: Omit<IconButtonProps, 'icon'> & { name: string; icon: ReactElement; color?: 'red' | 'gray' | undefined }) {
  return (
    <IconButton
      type="button"
      id={id}
      className={className}
      size="1"
      variant="soft"
      color={color ?? 'gray'}
      aria-label={name}
      title={name}
      disabled={disabled}
      onClick={onClick}
    >
      {icon}
    </IconButton>
  );
}

const named = (key: TranslatableString, icon: ReactElement, color?: 'red') =>
  function Named(props: IconButtonProps) {
    return <NamedIconButton {...props} name={props.registry.translateString(key)} icon={icon} color={color} />;
  };

/** Add a row to a list: a labelled button ("افزودن ردیف"), the list's title in its accessible name. */
function AddButton({ id, className, disabled, onClick, registry, title }: IconButtonProps) {
  const text = registry.translateString(TranslatableString.AddItemButton);
  return (
    <Button
      type="button"
      id={id}
      className={className}
      variant="soft"
      disabled={disabled}
      onClick={onClick}
      aria-label={title ? `${text}: ${title}` : text}
    >
      <PlusIcon /> {text}
    </Button>
  );
}

const ButtonTemplates: TemplatesType['ButtonTemplates'] = {
  // The desk page and the entry forms draw their own submit buttons.
  SubmitButton: () => null,
  AddButton,
  CopyButton: named(TranslatableString.CopyButton, <CopyIcon />),
  MoveDownButton: named(TranslatableString.MoveDownButton, <ArrowDownIcon />),
  MoveUpButton: named(TranslatableString.MoveUpButton, <ArrowUpIcon />),
  RemoveButton: named(TranslatableString.RemoveButton, <TrashIcon />, 'red'),
  ClearButton: named(TranslatableString.ClearButton, <Cross2Icon />),
};

/** Errors are shown under each field (FieldTemplate) and beside submit (the page); this list is for rjsf's own. */
export function ErrorListTemplate({ errors, registry }: ErrorListProps) {
  if (errors.length === 0) return null;
  return (
    <Card role="alert" size="1">
      <Text size="2" weight="bold">
        {registry.translateString(TranslatableString.ErrorsLabel)}
      </Text>
      <ul>
        {errors.map((e, i) => (
          <li key={`${e.stack}-${i}`}>
            <Text size="2" color="red">
              {e.message ?? e.stack}
            </Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  if (!errors?.length) return null;
  return (
    <Flex direction="column" id={`${fieldPathId.$id}__error`}>
      {errors.map((error, i) => (
        <Text key={i} size="1" color="red" role="alert">
          {error}
        </Text>
      ))}
    </Flex>
  );
}

export function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <Text id={`${fieldPathId.$id}__help`} size="1" color="gray">
      {help}
    </Text>
  );
}

/** A choice between subschemas (`oneOf` of objects): the selector, then the chosen option's fields. */
export function MultiSchemaFieldTemplate({ selector, optionSchemaField }: MultiSchemaFieldTemplateProps) {
  return (
    <Flex direction="column" gap="3">
      {selector}
      {optionSchemaField}
    </Flex>
  );
}

/** Add or remove the data of an optional group. */
export function OptionalDataControlsTemplate({
  id,
  registry,
  label,
  onAddClick,
  onRemoveClick,
}: OptionalDataControlsTemplateProps) {
  if (onAddClick)
    return (
      <Button type="button" id={id} size="1" variant="soft" onClick={onAddClick}>
        <PlusIcon /> {registry.translateString(TranslatableString.OptionalObjectAdd)}
      </Button>
    );
  if (onRemoveClick)
    return (
      <Button type="button" id={id} size="1" variant="soft" color="red" onClick={onRemoveClick}>
        <TrashIcon /> {registry.translateString(TranslatableString.OptionalObjectRemove)}
      </Button>
    );
  return (
    <Text size="1" color="gray">
      {label}
    </Text>
  );
}

/** A field of a free-form group (`additionalProperties` with a schema): its key typed beside its value. */
export function WrapIfAdditionalTemplate(props: WrapIfAdditionalTemplateProps) {
  const { id, children, disabled, label, onKeyRenameBlur, onRemoveProperty, readonly, registry, schema } = props;
  const additional = Object.prototype.hasOwnProperty.call(schema, '__rjsf_additionalProperties');
  if (!additional) return <>{children}</>;
  const { RemoveButton } = registry.templates.ButtonTemplates;
  return (
    <Flex gap="2" align="end" wrap="wrap">
      <TextField.Root
        id={`${id}-key`}
        defaultValue={label}
        aria-label={registry.translateString(TranslatableString.KeyLabel, [label])}
        disabled={disabled || readonly}
        onBlur={onKeyRenameBlur}
      />
      <Box flexGrow="1">{children}</Box>
      <RemoveButton
        id={buttonId(id, 'remove')}
        disabled={disabled || readonly}
        onClick={onRemoveProperty}
        registry={registry}
      />
    </Flex>
  );
}

export function UnsupportedFieldTemplate({ fieldPathId, reason, registry }: UnsupportedFieldProps) {
  const { translateString } = registry;
  const id = fieldPathId?.$id;
  const text =
    id && reason
      ? translateString(TranslatableString.UnsupportedFieldWithIdAndReason, [id, reason])
      : reason
        ? translateString(TranslatableString.UnsupportedFieldWithReason, [reason])
        : id
          ? translateString(TranslatableString.UnsupportedFieldWithId, [id])
          : translateString(TranslatableString.UnsupportedField);
  return (
    <Text size="2" color="red" role="alert">
      {text}
    </Text>
  );
}

export function CyclicSchemaExpandTemplate({ name, fieldPathId, registry, onExpand }: CyclicSchemaExpandProps) {
  return (
    <Flex direction="column" gap="1">
      <Text size="2" color="gray">
        {registry.translateString(TranslatableString.CycleDetected, [name])}
      </Text>
      <Box>
        <Button
          type="button"
          id={`${fieldPathId.$id}__expand`}
          size="1"
          variant="soft"
          onClick={() => onExpand(fieldPathId.$id)}
        >
          {registry.translateString(TranslatableString.ExpandButton)}
        </Button>
      </Box>
    </Flex>
  );
}

/** A field whose type rjsf cannot tell: the type selector and the field. */
export function FallbackFieldTemplate({ typeSelector, schemaField }: FallbackFieldTemplateProps) {
  return (
    <Flex direction="column" gap="2">
      {typeSelector}
      {schemaField}
    </Flex>
  );
}

export function GridTemplate({ children, column, className, ...rest }: GridTemplateProps) {
  return column ? (
    <Box className={className} {...rest}>
      {children}
    </Box>
  ) : (
    <Flex className={className} gap="3" wrap="wrap" {...rest}>
      {children}
    </Flex>
  );
}

/** The plain input rjsf draws for a type without its own widget: the theme's text field. */
export function BaseInputTemplate({
  id,
  value,
  type,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
  options,
}: BaseInputTemplateProps) {
  const numeric = type === 'number' || type === 'range';
  return (
    <TextField.Root
      id={id}
      type={(type as 'text') ?? 'text'}
      value={value ?? ''}
      dir={numeric || type === 'url' || type === 'color' ? 'ltr' : 'auto'}
      disabled={disabled || readonly}
      aria-invalid={Boolean(rawErrors?.length)}
      onChange={(e) => {
        const text = e.target.value;
        onChange(text === '' ? options.emptyValue : numeric ? Number(text) : text);
      }}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

export const templates = {
  ArrayFieldTemplate,
  ArrayFieldDescriptionTemplate,
  ArrayFieldItemButtonsTemplate,
  ArrayFieldItemTemplate,
  ArrayFieldTitleTemplate,
  BaseInputTemplate,
  CyclicSchemaExpandTemplate,
  DescriptionFieldTemplate,
  ErrorListTemplate,
  FallbackFieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  GridTemplate,
  MultiSchemaFieldTemplate,
  OptionalDataControlsTemplate,
  TitleFieldTemplate,
  UnsupportedFieldTemplate,
  WrapIfAdditionalTemplate,
  ButtonTemplates,
};
