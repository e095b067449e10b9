/**
 * The line diff of two catalogue documents as JSON, drawn left to right whatever the page's direction (each line
 * its own left-to-right line, so a Persian value stays in its place): added lines green, removed red, unchanged
 * runs folded to «…».
 */
import { Text } from '@radix-ui/themes';
import { useMemo } from 'react';
import { changedHunks, jsonText, lineDiff } from './line-diff';

export function DiffView({ before, after }: { before: unknown; after: unknown }) {
  const hunks = useMemo(() => changedHunks(lineDiff(jsonText(before ?? {}), jsonText(after ?? {}))), [before, after]);
  if (hunks.length === 0) return <Text size="2">بدون تغییر نسبت به نسخهٔ پیشین.</Text>;
  return (
    <pre
      className="ltr"
      dir="ltr"
      data-testid="catalogue-diff"
      style={{ margin: 0, overflowX: 'auto', fontSize: 12, textAlign: 'left', maxHeight: '50vh' }}
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
            {line.text}
          </div>
        ),
      )}
    </pre>
  );
}
