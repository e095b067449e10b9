/** A line diff of two texts (longest common subsequence), for a version against the one before it. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common head and tail first: versions differ in a few lines, so the table stays small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      middle.push({ kind: 'same', text: x[i]! });
      i++;
      j++;
    } else if (j < y.length && (i >= x.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      middle.push({ kind: 'added', text: y[j++]! });
    } else {
      middle.push({ kind: 'removed', text: x[i++]! });
    }
  }
  return [
    ...a.slice(0, head).map((text) => ({ kind: 'same' as const, text })),
    ...middle,
    ...a.slice(a.length - tail).map((text) => ({ kind: 'same' as const, text })),
  ];
}

/** Only the changed lines and `context` lines around each; null marks a gap. */
export function changedHunks(lines: DiffLine[], context = 2): Array<DiffLine | null> {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const out: Array<DiffLine | null> = [];
  lines.forEach((line, index) => {
    if (keep[index]) out.push(line);
    else if (out.at(-1) !== null) out.push(null);
  });
  if (out.at(-1) === null) out.pop();
  return out;
}

/** How a catalogue JSON file is written: two spaces, a final newline. */
export const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
