/**
 * The line diff of two catalogue documents as JSON, drawn left to right whatever the page's direction (each line
 * its own left-to-right line): added lines green, removed red, unchanged runs folded to «…». A JSON string holding
 * Persian is isolated (<bdi>), so its right-to-left run cannot pull the quotes, commas and keys around it out of
 * place, and it is drawn in the code font, whose Persian letters join.
 */
import { Text } from '@radix-ui/themes';
import { type ReactNode, useMemo } from 'react';
import { changedHunks, jsonText, lineDiff } from './line-diff';

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
const RTL_LETTER = /[\u0590-\u08FF]/;

/** One JSON line with each Persian string isolated in its own direction. */
function JsonLine({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(JSON_STRING)) {
    const start = match.index;
    if (!RTL_LETTER.test(match[0])) continue;
    // The quotes stay outside, in the line's left-to-right order; the words inside read right to left.
    parts.push(text.slice(at, start + 1));
    parts.push(
      <bdi key={start} dir="rtl" data-testid="catalogue-diff-persian">
        {match[0].slice(1, -1)}
      </bdi>,
    );
    parts.push('"');
    at = start + match[0].length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

export function DiffView({ before, after }: { before: unknown; after: unknown }) {
  const hunks = useMemo(() => changedHunks(lineDiff(jsonText(before ?? {}), jsonText(after ?? {}))), [before, after]);
  if (hunks.length === 0) return <Text size="2">بدون تغییر نسبت به نسخهٔ پیشین.</Text>;
  return (
    <pre
      className="ltr"
      dir="ltr"
      data-testid="catalogue-diff"
      style={{
        margin: 0,
        overflowX: 'auto',
        fontSize: 12,
        textAlign: 'left',
        maxHeight: '50vh',
        fontFamily: 'var(--code-font)',
      }}
    >
      {hunks.map((line, i) =>
        line === null ? (
          <div key={i} style={{ color: 'var(--gray-9)' }}>
            …
          </div>
        ) : (
          <div
            key={i}
            dir="ltr"
            data-kind={line.kind}
            style={{
              background:
                line.kind === 'added' ? 'var(--green-3)' : line.kind === 'removed' ? 'var(--red-3)' : undefined,
            }}
          >
            {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
            <JsonLine text={line.text} />
          </div>
        ),
      )}
    </pre>
  );
}
