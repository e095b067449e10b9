/**
 * Choices from the schema (`enum`, or `oneOf`/`anyOf` of `const` + `title` for Persian labels): one from a Radix
 * select or radio group, several from checkboxes (`type: array` with `uniqueItems`), a rating as a radio of
 * numbers. Values travel as option indices (rjsf's encoding), so numbers and booleans keep their type.
 */
import { CheckboxGroup, Flex, RadioGroup, Select, Text } from '@radix-ui/themes';
import {
  enumOptionsIndexForValue,
  enumOptionsValueForIndex,
  type EnumOptionsType,
  type WidgetProps,
} from '@rjsf/utils';

const optionsOf = (props: WidgetProps) => (props.options.enumOptions ?? []) as EnumOptionsType[];

const indexOf = (value: unknown, options: EnumOptionsType[]) => {
  const index = enumOptionsIndexForValue(value as never, options, false);
  return index === undefined || Array.isArray(index) ? '' : String(index);
};

export function SelectWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, multiple, rawErrors, placeholder } = props;
  if (multiple) return <CheckboxesWidget {...props} />;
  const options = optionsOf(props);
  const emptyValue = props.options.emptyValue;
  return (
    <Select.Root
      value={indexOf(value, options)}
      onValueChange={(v) => onChange(enumOptionsValueForIndex(v, options, emptyValue))}
      disabled={disabled || readonly}
      onOpenChange={(open) => (open ? onFocus(id, value) : onBlur(id, value))}
    >
      <Select.Trigger
        id={id}
        placeholder={placeholder || 'انتخاب کنید'}
        aria-invalid={Boolean(rawErrors?.length)}
        style={{ width: '100%' }}
      />
      <Select.Content position="popper">
        {options.map((o, i) => (
          <Select.Item key={i} value={String(i)} disabled={props.options.enumDisabled?.includes(o.value)}>
            {o.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

export function RadioWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, onBlur, onFocus } = props;
  const options = optionsOf(props);
  return (
    <RadioGroup.Root
      id={id}
      value={indexOf(value, options)}
      onValueChange={(v) => onChange(enumOptionsValueForIndex(v, options, props.options.emptyValue))}
      disabled={disabled || readonly}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
    >
      <Flex gap="4" wrap="wrap">
        {options.map((o, i) => (
          <Text as="label" size="2" key={i}>
            <Flex gap="2" align="center">
              <RadioGroup.Item value={String(i)} id={`${id}-${i}`} /> {o.label}
            </Flex>
          </Text>
        ))}
      </Flex>
    </RadioGroup.Root>
  );
}

/** Several of the choices: the array keeps them in the choices' order. */
export function CheckboxesWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, onBlur, onFocus } = props;
  const options = optionsOf(props);
  const selected = (Array.isArray(value) ? value : []).map((v) => indexOf(v, options)).filter((i) => i !== '');
  return (
    <CheckboxGroup.Root
      id={id}
      value={selected}
      onValueChange={(indices) =>
        onChange(
          options.map((o, i) => (indices.includes(String(i)) ? o.value : undefined)).filter((v) => v !== undefined),
        )
      }
      disabled={disabled || readonly}
      onFocus={() => onFocus(id, value)}
      onBlur={() => onBlur(id, value)}
    >
      <Flex gap="4" wrap="wrap">
        {options.map((o, i) => (
          <Text as="label" size="2" key={i}>
            <Flex gap="2" align="center">
              <CheckboxGroup.Item value={String(i)} id={`${id}-${i}`} /> {o.label}
            </Flex>
          </Text>
        ))}
      </Flex>
    </CheckboxGroup.Root>
  );
}

/** A rating (1 to `maximum`, 5 by default) as a row of numbered radios. */
export function RatingWidget(props: WidgetProps) {
  const max = typeof props.schema.maximum === 'number' ? props.schema.maximum : 5;
  const min = typeof props.schema.minimum === 'number' ? props.schema.minimum : 1;
  const enumOptions = Array.from({ length: max - min + 1 }, (_, i) => ({
    value: min + i,
    label: (min + i).toLocaleString('fa-IR'),
  }));
  return <RadioWidget {...props} options={{ ...props.options, enumOptions }} />;
}
