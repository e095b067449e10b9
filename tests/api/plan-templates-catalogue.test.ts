/**
 * Plan templates edited from the catalogue editor (issue 35 part 3, decisions 014 and 030), against the real server
 * on PGlite and PostgreSQL: staff with manageCatalogue see the templates beside desks, publish an edited one as a
 * version (audited) that searchPlanTemplates serves at once, without a restart; a template naming a desk that does
 * not exist is refused with 422 and the Persian problem at its pointer; a return to the file brings the file back;
 * without the action publishing is refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAdmin, post, type RunningServer, staffWithActions, startServer } from '../support/server';

let server: RunningServer;
let admin: string;

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

interface PlanDocument {
  identifier: string;
  title: string;
  steps: Array<{ key: string; desk: string }>;
}

const germanyFile = JSON.parse(
  readFileSync(path.join(__dirname, '../../schemas/plans/germanyStudy.json'), 'utf8'),
) as PlanDocument;

const templates = async () => {
  const res = await post(server, '/api/public/searchPlanTemplates');
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { items: Array<{ identifier: string; title: string; steps: Array<{ key: string }> }> })
    .items;
};
const germany = async () => (await templates()).find((t) => t.identifier === 'germanyStudy')!;

describe('plan templates in the catalogue editor', () => {
  it('are listed beside desks and form types, from their files', async () => {
    const res = await post(server, '/api/sys/fetchCatalogueEntries', {}, bearer(admin));
    expect(res.status, res.body.msg).toBe(200);
    const entries = (res.body.data as { entries: Array<{ kind: string; identifier: string; file: string | null }> })
      .entries;
    expect(entries.filter((e) => e.kind === 'plan').map((e) => e.identifier)).toEqual(
      expect.arrayContaining(['usaF1', 'canadaStudyPermit', 'germanyStudy']),
    );
    expect(entries.find((e) => e.identifier === 'germanyStudy')).toMatchObject({
      kind: 'plan',
      file: 'schemas/plans/germanyStudy.json',
    });
  });

  it('refuses publishing without manageCatalogue', async () => {
    const someone = await staffWithActions(server, ['viewTasks']);
    const res = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'plan', document: germanyFile },
      bearer(someone.token),
    );
    expect(res.status).toBe(403);
  });

  it('refuses a template naming a desk that does not exist, with 422 and the pointer', async () => {
    const bad = structuredClone(germanyFile);
    bad.steps[1]!.desk = 'noSuchDeskCpr';
    const checked = await post(server, '/api/sys/checkCatalogueEntry', { kind: 'plan', document: bad }, bearer(admin));
    expect(checked.status).toBe(200);
    expect((checked.body.data as { problems: unknown[] }).problems).toEqual([
      expect.objectContaining({ pointer: '/steps/1/desk', msg: 'میزی به نام «noSuchDeskCpr» وجود ندارد.' }),
    ]);
    const refused = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'plan', document: bad },
      bearer(admin),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toContain('منتشر نشد');
    expect((refused.body.data as { problems: Array<{ pointer: string; msg: string }> }).problems).toEqual([
      expect.objectContaining({ pointer: '/steps/1/desk', msg: 'میزی به نام «noSuchDeskCpr» وجود ندارد.' }),
    ]);
    // The meta-schema of plans holds too.
    const unknownKey = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'plan', document: { ...germanyFile, colour: 'red' } },
      bearer(admin),
    );
    expect(unknownKey.status).toBe(422);
    expect((await germany()).title).toBe(germanyFile.title);
  });

  it('publishes an edited template that searchPlanTemplates serves at once, audited; returns to the file', async () => {
    const edited = structuredClone(germanyFile);
    edited.title = 'تحصیل در آلمان (ویرایش کارکنان)';
    const lastStep = edited.steps.pop()!;
    const published = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'plan', document: edited },
      bearer(admin),
    );
    expect(published.status, published.body.msg).toBe(200);
    expect(published.body.msg).toBe('نسخهٔ ۱ منتشر شد.');
    expect(published.body.data).toMatchObject({ kind: 'plan', identifier: 'germanyStudy', version: 1 });

    const live = await germany();
    expect(live.title).toBe('تحصیل در آلمان (ویرایش کارکنان)');
    expect(live.steps.map((s) => s.key)).not.toContain(lastStep.key);

    const audited = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('entity', '=', 'catalogue.plan')
      .execute();
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ entityId: 'germanyStudy', action: 'publishCatalogueEntry' });

    const entries = (await post(server, '/api/sys/fetchCatalogueEntries', {}, bearer(admin))).body.data as {
      entries: Array<{ identifier: string; source: string; version: number | null }>;
    };
    expect(entries.entries.find((e) => e.identifier === 'germanyStudy')).toMatchObject({
      source: 'published',
      version: 1,
    });

    const back = await post(
      server,
      '/api/sys/revertCatalogueEntry',
      { kind: 'plan', identifier: 'germanyStudy', versionId: null },
      bearer(admin),
    );
    expect(back.status, back.body.msg).toBe(200);
    const restored = await germany();
    expect(restored.title).toBe(germanyFile.title);
    expect(restored.steps.map((s) => s.key)).toContain(lastStep.key);
  });
});
