/**
 * Every integer in openapi/openapi.yaml carries `minimum` and `maximum` that fit its database column (decision 017):
 * without them a number the column cannot hold (1e20, 2^53, −1e18) passes validation and reaches the database.
 * The walk covers the whole contract, so an operation added later is covered without touching this test. The shared
 * bounds live in components (Id32, Id64, Rial, Count, Seconds); reference them rather than repeating numbers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LARGEST_AMOUNT } from '../../src/server/modules/ledger/types';

const root = path.resolve(import.meta.dirname, '../..');
const contract = parse(readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8')) as unknown;
const SAFE = Number.MAX_SAFE_INTEGER;

interface Found {
  pointer: string;
  minimum: unknown;
  maximum: unknown;
}

function integers(node: unknown, pointer: string, out: Found[]): Found[] {
  if (Array.isArray(node)) {
    node.forEach((item, i) => integers(item, `${pointer}/${i}`, out));
  } else if (node !== null && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    const type = schema.type;
    if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
      out.push({ pointer, minimum: schema.minimum, maximum: schema.maximum });
    }
    for (const [key, value] of Object.entries(schema)) integers(value, `${pointer}/${key.replaceAll('/', '~1')}`, out);
  }
  return out;
}

const found = integers(contract, '#', []);

describe('integer bounds in the contract', () => {
  it('finds the integers of the contract', () => {
    expect(found.length).toBeGreaterThan(50);
  });

  it('bounds every integer with a minimum and a maximum within the safe integers', () => {
    const unbounded = found.filter(
      (f) =>
        typeof f.minimum !== 'number' ||
        typeof f.maximum !== 'number' ||
        f.minimum < -SAFE ||
        f.maximum > SAFE ||
        f.minimum > f.maximum,
    );
    expect(unbounded.map((f) => f.pointer)).toEqual([]);
  });

  it('keeps the shared components at their columns', () => {
    const schemas = (contract as { components: { schemas: Record<string, Found> } }).components.schemas;
    expect([schemas.Id32?.minimum, schemas.Id32?.maximum]).toEqual([1, 2147483647]);
    expect([schemas.Id64?.minimum, schemas.Id64?.maximum]).toEqual([1, SAFE]);
    expect([schemas.Rial?.minimum, schemas.Rial?.maximum]).toEqual([0, SAFE]);
  });

  it('stops the money inputs the ledger posts at the largest amount one posting may move', () => {
    const paths = (contract as { paths: Record<string, Record<string, unknown>> }).paths;
    const bodyOf = (op: string) =>
      (paths[op]!.post as { requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } } })
        .requestBody.content['application/json'].schema;
    const schemas = (contract as { components: { schemas: Record<string, { properties: Record<string, Found> }> } })
      .components.schemas;
    const inputs = [
      schemas.PayOfflineInput!.properties.collectionAmount!,
      (bodyOf('/api/me/requestWithdrawal') as { properties: Record<string, Found> }).properties.amount!,
      (bodyOf('/api/sys/uafCprDone') as { properties: Record<string, Found> }).properties.realPrice!,
    ];
    expect(inputs.map((f) => f.maximum)).toEqual([LARGEST_AMOUNT, LARGEST_AMOUNT, LARGEST_AMOUNT]);
    expect(inputs.map((f) => (f as { 'x-messages'?: Record<string, string> })['x-messages']?.maximum)).toEqual([
      'amount.tooLarge',
      'amount.tooLarge',
      'amount.tooLarge',
    ]);
  });
});
