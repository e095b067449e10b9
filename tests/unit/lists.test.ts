/** The one paging and one text-search helper every server list uses (decision 007): src/server/lib/paging.ts, sql.ts. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PER_PAGE, listOf, pageOfArray, pageWindow } from '../../src/server/lib/paging';
import { likePattern, textContains } from '../../src/server/lib/sql';

describe('paging', () => {
  it('turns page and perPage into LIMIT/OFFSET, 50 a page from page 1 by default', () => {
    expect(DEFAULT_PER_PAGE).toBe(50);
    expect(pageWindow({})).toEqual({ limit: 50, offset: 0 });
    expect(pageWindow({ page: 3, perPage: 20 })).toEqual({ limit: 20, offset: 40 });
    expect(pageWindow({ page: undefined, perPage: undefined })).toEqual({ limit: 50, offset: 0 });
  });

  it('pages a list held in memory and counts all of it', () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    expect(pageOfArray(all, { page: 2, perPage: 3 })).toEqual({ items: [3, 4, 5], total: 7 });
    expect(pageOfArray(all, { page: 4, perPage: 3 })).toEqual({ items: [], total: 7 });
    expect(listOf(['a', 'b'])).toEqual({ items: ['a', 'b'], total: 2 });
  });
});

describe('text search', () => {
  it("takes LIKE's wildcards and its escape character literally", () => {
    expect(likePattern('50%')).toBe('%50\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('c:\\x')).toBe('%c:\\\\x%');
    expect(likePattern('دلار')).toBe('%دلار%');
  });

  it('matches in memory as ILIKE does in the database: anywhere, any letter case', () => {
    expect(textContains(['پرداخت هزینه UCAS', 'ucasGeneralCpr'], 'ucas')).toBe(true);
    expect(textContains(['Application Fee'], 'FEE')).toBe(true);
    expect(textContains(['دلار آمریکا'], 'آمریکا')).toBe(true);
    expect(textContains(['یورو'], 'دلار')).toBe(false);
  });
});
