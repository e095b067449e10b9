/** The catalogue editor's JSON syntax error: Persian, with the line and column of the trouble. */
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from '../../src/web/features/management/catalogue/json-error';

function problemOf(text: string) {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(text, (error as Error).message);
  }
  throw new Error('parsed');
}

describe('jsonSyntaxProblem', () => {
  it('names the line and column of a missing comma, in Persian digits', () => {
    const p = problemOf('{\n  "a": 1\n  "b": 2\n}');
    expect(p).toMatchObject({ line: 3, column: 3 });
    expect(p.message).toContain('سطر ۳، ستون ۳');
    expect(p.message).toContain('«\u2066"\u2069»');
    // No English but the format's name.
    expect(p.message.replaceAll('JSON', '')).not.toMatch(/[A-Za-z]/);
  });

  it('reads the engine’s line and column when it gives them (Firefox)', () => {
    expect(
      jsonSyntaxProblem('{\n x}', 'JSON.parse: expected property name at line 2 column 2 of the JSON data'),
    ).toMatchObject({ line: 2, column: 2 });
  });

  it('says where a text that stops early ends', () => {
    const p = problemOf('{\n  "a": [1, 2');
    expect(p.line).toBe(2);
    expect(p.message).toContain('بسته نشده');
  });

  it('asks for an object when the text is empty', () => {
    expect(problemOf('  ').message).toBe('متن خالی است؛ یک شیء JSON بنویسید.');
  });
});
