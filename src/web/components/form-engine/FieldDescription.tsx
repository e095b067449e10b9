/**
 * A field's JSON Schema `description` (or `ui:description`) under its label: guidance a catalogue editor writes.
 * Plain text, unless the form asks for markdown (`ui:enableMarkdownInDescription`, rjsf's own option); markdown is
 * drawn without raw HTML, and markdown-to-jsx's sanitizer drops `javascript:`, `vbscript:` and `data:` links.
 */
import { Text } from '@radix-ui/themes';
import { Markdown } from './LazyMarkdown';

export function FieldDescription({
  id,
  description,
  markdown,
}: {
  id: string;
  description: unknown;
  markdown: boolean;
}) {
  if (typeof description !== 'string' || !description.trim()) return null;
  return (
    <Text as="div" size="1" color="gray" id={`${id}__description`} data-testid="field-description">
      {markdown ? (
        <Markdown options={{ disableParsingRawHTML: true, forceInline: false }}>{description}</Markdown>
      ) : (
        description
      )}
    </Text>
  );
}
