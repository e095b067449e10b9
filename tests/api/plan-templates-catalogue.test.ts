/**
 * Plan templates edited from the catalogue editor (decisions 014 and 030), against the real server
 * on PGlite and PostgreSQL: staff with manageCatalogue see the templates beside desks, publish an edited one as a
 * version (audited) that searchPlanTemplates serves at once, without a restart; a template naming a desk that does
 * not exist is refused with 422 and the Persian problem at its pointer; a return to the file brings the file back;
 * without the action publishing is refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';
import { adminApi, dataOf, staffApi, type TypedApi, typedApi } from '../support/typed-api';

let server: RunningServer;
let admin: TypedApi;

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await adminApi(server);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

interface PlanDocument extends Record<string, unknown> {
  identifier: string;
  title: string;
  steps: Array<{ key: string; desk: string }>;
}

const germanyFile = JSON.parse(
  readFileSync(path.join(__dirname, '../../schemas/plans/germanyStudy.json'), 'utf8'),
) as PlanDocument;

const templates = async () => (await dataOf(typedApi(server).POST('/api/public/searchPlanTemplates'))).items;
const publish = (document: Record<string, unknown>, api = admin) =>
  api.POST('/api/sys/publishCatalogueEntry', { body: { kind: 'plan', document } });
const entries = async () => (await dataOf(admin.POST('/api/sys/fetchCatalogueEntries'))).entries;
const germany = async () => (await templates()).find((t) => t.identifier === 'germanyStudy')!;

describe('plan templates in the catalogue editor', () => {
  it('are listed beside desks and form types, from their files', async () => {
    const listed = await entries();
    expect(listed.filter((e) => e.kind === 'plan').map((e) => e.identifier)).toEqual(
      expect.arrayContaining(['usaF1', 'canadaStudyPermit', 'germanyStudy']),
    );
    expect(listed.find((e) => e.identifier === 'germanyStudy')).toMatchObject({
      kind: 'plan',
      file: 'schemas/plans/germanyStudy.json',
    });
  });

  it('refuses publishing without manageCatalogue', async () => {
    const someone = await staffApi(server, ['viewTasks']);
    expect((await publish(germanyFile, someone.api)).response.status).toBe(403);
  });

  it('refuses a template naming a desk that does not exist, with 422 and the pointer', async () => {
    const bad = structuredClone(germanyFile);
    bad.steps[1]!.desk = 'noSuchDeskCpr';
    const checked = await dataOf(admin.POST('/api/sys/checkCatalogueEntry', { body: { kind: 'plan', document: bad } }));
    expect(checked.problems).toEqual([
      expect.objectContaining({ pointer: '/steps/1/desk', msg: 'میزی به نام «noSuchDeskCpr» وجود ندارد.' }),
    ]);
    const refused = await publish(bad);
    expect(refused.response.status).toBe(422);
    expect(refused.error!.msg).toContain('منتشر نشد');
    expect(refused.error).toMatchObject({
      data: {
        problems: [
          expect.objectContaining({ pointer: '/steps/1/desk', msg: 'میزی به نام «noSuchDeskCpr» وجود ندارد.' }),
        ],
      },
    });
    // The meta-schema of plans holds too.
    expect((await publish({ ...germanyFile, colour: 'red' })).response.status).toBe(422);
    expect((await germany()).title).toBe(germanyFile.title);
  });

  it('publishes an edited template that searchPlanTemplates serves at once, audited; returns to the file', async () => {
    const edited = structuredClone(germanyFile);
    edited.title = 'تحصیل در آلمان (ویرایش کارکنان)';
    const lastStep = edited.steps.pop()!;
    const published = await publish(edited);
    expect(published.response.status).toBe(200);
    expect(published.data!.msg).toBe('نسخهٔ ۱ منتشر شد.');
    expect(published.data!.data).toMatchObject({ kind: 'plan', identifier: 'germanyStudy', version: 1 });

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

    expect((await entries()).find((e) => e.identifier === 'germanyStudy')).toMatchObject({
      source: 'published',
      version: 1,
    });

    await dataOf(
      admin.POST('/api/sys/revertCatalogueEntry', {
        body: { kind: 'plan', identifier: 'germanyStudy', versionId: null },
      }),
    );
    const restored = await germany();
    expect(restored.title).toBe(germanyFile.title);
    expect(restored.steps.map((s) => s.key)).toContain(lastStep.key);
  });
});
