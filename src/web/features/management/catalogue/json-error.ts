/**
 * Why a text is not JSON, in Persian, with the line and column of the trouble: read from the engine's message
 * (V8 says `at position 18` and sometimes `(line 3 column 7)`, Firefox `at line 3 column 7`), or at the end of the
 * text when it stopped early.
 */
import { toPersianDigits } from '../../../../shared/format';

export interface JsonSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(position, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

function positionOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  return lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
}

export function jsonSyntaxProblem(text: string, engineMessage: string): JsonSyntaxProblem {
  const lc = /line (\d+) column (\d+)/i.exec(engineMessage);
  const pos = /position (\d+)/i.exec(engineMessage);
  const atEnd = !lc && (!pos || Number(pos[1]) >= text.trimEnd().length);
  const where = lc
    ? { line: Number(lc[1]), column: Number(lc[2]) }
    : pos
      ? lineAndColumn(text, Number(pos[1]))
      : lineAndColumn(text, text.trimEnd().length);
  if (!text.trim()) return { ...where, message: 'متن خالی است؛ یک شیء JSON بنویسید.' };
  const place = `سطر ${toPersianDigits(where.line)}، ستون ${toPersianDigits(where.column)}`;
  if (atEnd)
    return {
      ...where,
      message: `این متن JSON درستی نیست: متن در ${place} پیش از بسته شدن تمام شد (آکولاد، کروشه یا گیومه‌ای بسته نشده است).`,
    };
  const found = text[positionOf(text, where.line, where.column)];
  const token = found === undefined || /\s/.test(found) ? '' : ` نویسهٔ «\u2066${found}\u2069»`;
  return {
    ...where,
    message: `این متن JSON درستی نیست: در ${place}${token} این‌جا درست نیست (ویرگول، گیومه یا آکولاد را بررسی کنید).`,
  };
}
