/**
 * A request's fields as the server describes them (`fieldsView`, titled by the form version the request was
 * validated against): each value beside its title, a list as a numbered list of its rows, a group under its title.
 * The customer's request page and the staff's requests list draw it; it knows no form.
 */
import { Box, Flex, Text } from '@radix-ui/themes';
import type { components } from '../../generated/api';
import { LATIN_ATTRIBUTE } from '../../shared/format/latin';
import { DateText } from './date/DateText';

export type FieldView = components['schemas']['FieldView'];

function Value({ field }: { field: FieldView }) {
  if (field.items)
    return (
      <ol className="fields-list" data-field-list={field.path}>
        {field.items.map((item) => (
          <li key={item.path}>{item.fields ? <Fields fields={item.fields} /> : <Text size="2">{item.text}</Text>}</li>
        ))}
      </ol>
    );
  if (field.fields)
    return (
      <Box style={{ borderInlineStart: '2px solid var(--gray-a5)', paddingInlineStart: 'var(--space-3)' }}>
        <Fields fields={field.fields} />
      </Box>
    );
  // A date reads in the chosen calendar (Jalali by default), Persian digits, slashes: the one date formatter.
  if (field.date)
    return (
      <Text size="2" data-field-date={field.path}>
        <DateText value={field.date} format="slashDate" />
      </Text>
    );
  // What the customer typed, shown back as written (a user name, an address, a code): Latin by nature.
  return (
    <Text size="2" style={{ overflowWrap: 'anywhere' }} dir="auto" {...{ [LATIN_ATTRIBUTE]: '' }}>
      {field.text}
    </Text>
  );
}

export function Fields({ fields }: { fields: FieldView[] }) {
  return (
    <Flex direction="column" gap="2">
      {fields.map((field) => (
        <Flex
          key={field.path}
          direction={field.items || field.fields ? 'column' : 'row'}
          gap="1"
          wrap="wrap"
          data-field-view={field.path}
        >
          <Text size="2" color="gray">
            {field.title}
            {field.items || field.fields ? '' : ':'}
          </Text>
          <Value field={field} />
        </Flex>
      ))}
    </Flex>
  );
}

/** The fields as one line of text (a spreadsheet cell): «title: value»، lists and groups in brackets. */
export function fieldsText(fields: FieldView[]): string {
  const one = (f: FieldView): string =>
    f.items
      ? `${f.title}: [${f.items.map((i) => (i.fields ? fieldsText(i.fields) : (i.text ?? ''))).join('؛ ')}]`
      : f.fields
        ? `${f.title}: (${fieldsText(f.fields)})`
        : `${f.title}: ${f.text ?? ''}`;
  return fields.map(one).join('، ');
}
