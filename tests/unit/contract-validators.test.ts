/**
 * The router compiles an operation's validators on its first call (src/server/contract/router.ts), so a start no longer
 * proves that ajv can compile every schema of the contract: this does, for each request body and 200 response.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/server/contract/contract';
import { ContractValidator } from '../../src/server/contract/validator';

describe('contract validators', () => {
  const contract = loadContract();
  const validator = new ContractValidator(contract.document);

  it('compiles the request and response schema of every operation', () => {
    const pointers = contract.operations.flatMap((op) =>
      [op.requestSchemaPointer, op.responseSchemaPointer].filter((p): p is string => p !== null),
    );
    expect(pointers.length).toBeGreaterThan(contract.operations.length);
    for (const pointer of pointers) expect(typeof validator.validator(pointer), pointer).toBe('function');
  });

  it('gives each pointer one validator that rejects what its schema forbids', () => {
    const login = contract.operations.find((op) => op.operationId === 'sendMobileValidationCode');
    expect(login?.requestSchemaPointer).toBeTruthy();
    const validate = validator.validator(login!.requestSchemaPointer!);
    expect(validator.validator(login!.requestSchemaPointer!)).toBe(validate);
    expect(validate({ mobileNo: 42 })).toBe(false);
    expect(validator.describe(validate.errors)).toMatch(/[\u0600-\u06FF]/);
  });
});
