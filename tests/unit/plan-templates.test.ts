/**
 * Plan templates under schemas/plans/ are checked by schemas:check like the desks: a step naming a desk that does
 * not exist fails with the file and the JSON pointer of that step's desk.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8'));

async function problemsAfter(change: (copy: string) => void) {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'plan-schemas-'));
  try {
    cpSync(schemasDir, copy, { recursive: true });
    change(copy);
    const problems = await validateSchemaTree(copy);
    return problems.map((p) => ({ ...p, file: path.relative(copy, p.file) }));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe('plan templates in schemas:check', () => {
  it('the shipped plans pass: USA, Canada and Germany', async () => {
    expect(await validateSchemaTree(schemasDir)).toEqual([]);
    for (const file of ['plans/usaF1.json', 'plans/canadaStudyPermit.json', 'plans/germanyStudy.json'])
      expect(readJson(file).steps.length).toBeGreaterThan(3);
  });

  it('a step naming a desk that does not exist fails with file and pointer', async () => {
    const problems = await problemsAfter((copy) => {
      const plan = readJson('plans/usaF1.json');
      plan.steps[3].desk = 'sevisNoSuchDesk';
      plan.steps[1].otherDesks = ['ieltsGeneralCpr', 'noSuchExam'];
      writeFileSync(path.join(copy, 'plans/usaF1.json'), JSON.stringify(plan));
    });
    expect(problems.map((p) => [p.file, p.pointer, p.message])).toEqual([
      ['plans/usaF1.json', '/steps/1/otherDesks/1', 'no desk noSuchExam under catalogue/desks'],
      ['plans/usaF1.json', '/steps/3/desk', 'no desk sevisNoSuchDesk under catalogue/desks'],
    ]);
  });

  it('refuses a fee in a currency the desk does not take, a prefill of a price input, and a repeated desk', async () => {
    const problems = await problemsAfter((copy) => {
      const plan = readJson('plans/usaF1.json');
      plan.steps[2].fee.currency = 'EUR'; // the GRE desk is paid in USD only
      plan.steps[0].prefill = { amount: '90' };
      plan.steps[6].desk = 'uafCpr';
      writeFileSync(path.join(copy, 'plans/usaF1.json'), JSON.stringify(plan));
    });
    expect(problems.map((p) => [p.file, p.pointer])).toEqual([
      ['plans/usaF1.json', '/steps/0/prefill/amount'],
      ['plans/usaF1.json', '/steps/2/fee/currency'],
      ['plans/usaF1.json', '/steps/6/desk'],
    ]);
  });

  it('a plan without a fee fails its meta-schema with the pointer of the step', async () => {
    const problems = await problemsAfter((copy) => {
      const plan = readJson('plans/germanyStudy.json');
      delete plan.steps[0].fee;
      writeFileSync(path.join(copy, 'plans/germanyStudy.json'), JSON.stringify(plan));
    });
    expect(problems.map((p) => [p.file, p.pointer])).toEqual([['plans/germanyStudy.json', '/steps/0']]);
  });
});
