/**
 * The catalogue published without a restart (issue 17, points 5 and 6), against the real server on PGlite and
 * PostgreSQL: a desk or form type file added or changed under the catalogue folder goes live, an invalid one keeps
 * the previous version live and is reported (log and the staff operation); staff with manageCatalogue publish a
 * version (author, time, audit, catalogue.changed on the live channel), an invalid one is refused with 422 and
 * Persian problems at their pointers, versions are listed and any earlier one (or the file) returns in one call;
 * without the action it is refused. On PostgreSQL with Redis, a second server process sees a publish at once.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conferenceDesk, conferenceForm, withConferenceDesk } from '../support/conference-desk';
import { moneyHelpers } from '../support/money';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, startServer } from '../support/server';
import { adminApi, dataOf } from '../support/typed-api';

const schemas = withConferenceDesk();
let server: RunningServer;
let admin: string;

beforeAll(async () => {
  server = await startServer({ web: false, env: { SCHEMAS_DIR: schemas } });
  admin = await loginAdmin(server);
  // A fresh server migrates a new database: on a busy two-core machine that alone may pass a minute.
}, 180_000);
afterAll(async () => {
  await server?.stop();
  rmSync(schemas, { recursive: true, force: true });
});

interface CatalogueData {
  desks: Array<Record<string, unknown> & { identifier: string; title: string }>;
  forms: Array<
    Record<string, unknown> & { formType: string; schema: { properties: Record<string, { title: string }> } }
  >;
}
interface Entries {
  entries: Array<{ kind: string; identifier: string; source: string; version: number | null; file: string | null }>;
  problems: Array<{ file: string; pointer: string; msg: string }>;
}
interface Version {
  id: number;
  version: number;
  document: Record<string, unknown> | null;
  authorName: string | null;
  createdAt: string;
  revertedTo: number | null;
}

const fetchCatalogue = async (on = server) => (await post(on, '/api/public/fetchCatalogue')).body.data as CatalogueData;
const conferenceOf = async (on = server) =>
  (await fetchCatalogue(on)).forms.find((f) => f.formType === 'conferenceFee')!;
const entries = async () =>
  (await post(server, '/api/sys/fetchCatalogueEntries', {}, bearer(admin))).body.data as Entries;

/** Waits until `probe` holds (file watching is asynchronous). */
async function until(probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

const formFile = () => path.join(schemas, 'forms/conferenceFee.json');
const withTitle = (title: string) => {
  const form = structuredClone(conferenceForm) as typeof conferenceForm & { schema: { title?: string } };
  (form.schema.properties as Record<string, { title: string }>).companyName!.title = title;
  return form;
};

describe('catalogue files under schemas/, without a restart', () => {
  it('a changed form type file goes live; an invalid one keeps the previous version live and is reported', async () => {
    writeFileSync(formFile(), JSON.stringify(withTitle('نام سازمان'), null, 2));
    await until(async () => (await conferenceOf()).schema.properties.companyName!.title === 'نام سازمان');

    // Broken JSON, then a file its meta-schema refuses: the previous version stays, the problem is listed.
    writeFileSync(formFile(), '{ "formType": "conferenceFee", ');
    await until(async () =>
      (await entries()).problems.some(
        (p) => p.file === 'forms/conferenceFee.json' || p.file.endsWith('forms/conferenceFee.json'),
      ),
    );
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe('نام سازمان');
    const { pricing: _pricing, ...noPricing } = withTitle('بی‌قیمت');
    writeFileSync(formFile(), JSON.stringify(noPricing, null, 2));
    await until(async () => (await entries()).problems.some((p) => p.msg.includes('pricing')));
    const problem = (await entries()).problems.find((p) => p.msg.includes('pricing'))!;
    expect(problem).toMatchObject({ pointer: '/', msg: '«pricing» لازم است.' });
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe('نام سازمان');
    expect(server.logs.some((l) => l.msg === 'catalogue file refused; its previous version stays live')).toBe(true);

    // A desk naming a field its form does not have is refused the same way; a new valid desk goes live.
    const deskFile = path.join(schemas, 'catalogue/desks/conferenceWrongCpr.json');
    writeFileSync(
      deskFile,
      JSON.stringify({
        ...conferenceDesk,
        identifier: 'conferenceWrongCpr',
        to: '/desks/conferenceWrongCpr',
        comps: { nope: { caption: 'x' } },
      }),
    );
    await until(async () => (await entries()).problems.some((p) => p.pointer === '/comps/nope'));
    expect((await fetchCatalogue()).desks.some((d) => d.identifier === 'conferenceWrongCpr')).toBe(false);
    writeFileSync(
      deskFile,
      JSON.stringify({
        ...conferenceDesk,
        identifier: 'conferenceWrongCpr',
        to: '/desks/conferenceWrongCpr',
        title: 'میز تازه',
      }),
    );
    await until(async () => (await fetchCatalogue()).desks.some((d) => d.identifier === 'conferenceWrongCpr'));
    rmSync(deskFile);
    await until(async () => !(await fetchCatalogue()).desks.some((d) => d.identifier === 'conferenceWrongCpr'));

    // Fixed: the problem goes away.
    writeFileSync(formFile(), JSON.stringify(conferenceForm, null, 2));
    await until(async () => (await entries()).problems.length === 0);
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe(
      conferenceForm.schema.properties.companyName.title,
    );
  });
});

describe('publishing from the catalogue page', () => {
  it('is refused without manageCatalogue', async () => {
    const customer = await loginByCode(server, '09150000301');
    const staff = await post(
      server,
      '/api/users/saveUser',
      { mobileNo: '09150000302', isStaff: true, password: 'staff-pass-1' },
      bearer(admin),
    );
    expect(staff.status).toBe(200);
    const staffToken = (
      await post(server, '/api/me/loginByPassword', { username: '09150000302', password: 'staff-pass-1' })
    ).body.data as { userToken: string };
    for (const token of [customer, staffToken.userToken]) {
      for (const op of [
        'fetchCatalogueEntries',
        'checkCatalogueEntry',
        'publishCatalogueEntry',
        'revertCatalogueEntry',
      ]) {
        const res = await post(
          server,
          `/api/sys/${op}`,
          { kind: 'form', document: conferenceForm, identifier: 'conferenceFee', versionId: null },
          bearer(token),
        );
        expect(res.status, op).toBe(403);
        expect(res.body.msg).toMatch(/[\u0600-\u06FF]/);
      }
    }
    expect((await post(server, '/api/sys/fetchCatalogueEntries', {})).status).toBe(401);
  });

  it('lists every desk and form type with its JSON', async () => {
    const { entries: list } = await entries();
    expect(list.find((e) => e.kind === 'form' && e.identifier === 'conferenceFee')).toMatchObject({
      source: 'file',
      version: null,
      file: expect.stringContaining('forms/conferenceFee.json'),
    });
    expect(list.filter((e) => e.kind === 'desk').length).toBe((await fetchCatalogue()).desks.length);
  });

  it('checks as one types, and refuses an invalid publish with 422 and Persian problems at their pointers', async () => {
    const bad = { ...structuredClone(conferenceForm), priceInputs: ['currency', 'nothing'] };
    const checked = await post(server, '/api/sys/checkCatalogueEntry', { kind: 'form', document: bad }, bearer(admin));
    expect(checked.status).toBe(200);
    expect((checked.body.data as { problems: unknown[] }).problems).toEqual([
      expect.objectContaining({ pointer: '/priceInputs/1', msg: 'فرم فیلدی به نام «nothing» ندارد.' }),
    ]);
    const refused = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'form', document: bad },
      bearer(admin),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toContain('منتشر نشد');
    expect((refused.body.data as { problems: Array<{ pointer: string }> }).problems[0]!.pointer).toBe('/priceInputs/1');

    const unknownKey = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'desk', document: { ...conferenceDesk, colour: 'red' } },
      bearer(admin),
    );
    expect(unknownKey.status).toBe(422);
    expect((unknownKey.body.data as { problems: Array<{ msg: string }> }).problems[0]!.msg).toBe(
      'کلید «colour» اینجا پذیرفته نیست.',
    );
    // A form change that would break a desk using it is refused too.
    const { billingAddress: _b, ...properties } = conferenceForm.schema.properties;
    const breaking = {
      ...structuredClone(conferenceForm),
      schema: {
        ...conferenceForm.schema,
        properties,
        required: conferenceForm.schema.required.filter((r) => r !== 'billingAddress'),
      },
    };
    const broken = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'form', document: breaking },
      bearer(admin),
    );
    expect(broken.status).toBe(422);
    expect(JSON.stringify(broken.body.data)).toContain('/comps/billingAddress~1city');
    expect((await conferenceOf()).schema.properties.billingAddress).toBeDefined();
  });

  it('publishes a version live at once, audited, announced; lists versions; returns to any earlier one', async () => {
    const echo = connectEcho(server.url);
    try {
      await waitConnected(echo);
      const joined = subscription(echo, 'public-general-channel');
      const changed = nextEvent<{ desks: string[]; forms: string[] }>(
        echo.channel('public-general-channel'),
        '.catalogue.changed',
      );
      expect(await joined).toBe('joined');

      const v1 = await post(
        server,
        '/api/sys/publishCatalogueEntry',
        { kind: 'form', document: withTitle('نام شرکت (نسخه ۱)') },
        bearer(admin),
      );
      expect(v1.status).toBe(200);
      expect(v1.body.msg).toBe('نسخهٔ ۱ منتشر شد.');
      expect(v1.body.data).toMatchObject({ version: 1, revertedTo: null, authorName: expect.any(String) });
      expect((await conferenceOf()).schema.properties.companyName!.title).toBe('نام شرکت (نسخه ۱)');
      expect(await changed).toEqual({ desks: ['conferenceFeeCpr'], forms: ['conferenceFee'] });
    } finally {
      echo.disconnect();
    }
    const audited = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'publishCatalogueEntry')
      .execute();
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ entity: 'catalogue.form', entityId: 'conferenceFee' });

    const v2 = await post(
      server,
      '/api/sys/publishCatalogueEntry',
      { kind: 'form', document: withTitle('نام شرکت (نسخه ۲)') },
      bearer(admin),
    );
    expect(v2.body.data).toMatchObject({ version: 2 });
    // A file change does not override a published version.
    writeFileSync(formFile(), JSON.stringify(withTitle('از فایل'), null, 2));
    await until(async () => {
      const r = await post(
        server,
        '/api/sys/searchCatalogueVersions',
        { kind: 'form', identifier: 'conferenceFee' },
        bearer(admin),
      );
      return (
        (r.body.data as { file: { document: { schema: { properties: { companyName: { title: string } } } } } }).file
          .document.schema.properties.companyName.title === 'از فایل'
      );
    });
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe('نام شرکت (نسخه ۲)');

    const listed = await post(
      server,
      '/api/sys/searchCatalogueVersions',
      { kind: 'form', identifier: 'conferenceFee' },
      bearer(admin),
    );
    const versions = (listed.body.data as { items: Version[] }).items;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[1]).toMatchObject({ authorName: expect.any(String), createdAt: expect.any(String) });

    const back = await post(
      server,
      '/api/sys/revertCatalogueEntry',
      { kind: 'form', identifier: 'conferenceFee', versionId: versions[1]!.id },
      bearer(admin),
    );
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ version: 3, revertedTo: 1 });
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe('نام شرکت (نسخه ۱)');

    const toFile = await post(
      server,
      '/api/sys/revertCatalogueEntry',
      { kind: 'form', identifier: 'conferenceFee', versionId: null },
      bearer(admin),
    );
    expect(toFile.status).toBe(200);
    expect(toFile.body.data).toMatchObject({ version: 4, revertedTo: 0, document: null });
    expect((await conferenceOf()).schema.properties.companyName!.title).toBe('از فایل');
    expect((await entries()).entries.find((e) => e.identifier === 'conferenceFee')).toMatchObject({
      source: 'file',
      version: 4,
    });

    const missing = await post(
      server,
      '/api/sys/revertCatalogueEntry',
      { kind: 'form', identifier: 'conferenceFee', versionId: 999999 },
      bearer(admin),
    );
    expect(missing.status).toBe(404);
    writeFileSync(formFile(), JSON.stringify(conferenceForm, null, 2));
  });

  it('publishes a new desk that has no file', async () => {
    const desk = {
      ...conferenceDesk,
      identifier: 'conferencePublishedCpr',
      to: '/desks/conferencePublishedCpr',
      title: 'میز منتشرشده',
    };
    const res = await post(server, '/api/sys/publishCatalogueEntry', { kind: 'desk', document: desk }, bearer(admin));
    expect(res.status).toBe(200);
    expect((await fetchCatalogue()).desks.find((d) => d.identifier === 'conferencePublishedCpr')?.title).toBe(
      'میز منتشرشده',
    );
    const toFile = await post(
      server,
      '/api/sys/revertCatalogueEntry',
      { kind: 'desk', identifier: 'conferencePublishedCpr', versionId: null },
      bearer(admin),
    );
    expect(toFile.status).toBe(404);
  });

  it('refuses a form edit that breaks its own case, naming the case and its pointer; customers are served no case', async () => {
    const api = await adminApi(server);
    const student = {
      name: 'دانشجو شمارهٔ دانشجویی می‌دهد',
      data: { currency: 1, amount: 120, requestedPaymentMethodGroup: 1, registrationType: 'student' },
      shown: ['studentId'],
      required: ['studentId'],
    };
    const withCase = { ...structuredClone(conferenceForm), cases: [student] };
    expect(
      (await dataOf(api.POST('/api/sys/checkCatalogueEntry', { body: { kind: 'form', document: withCase } }))).problems,
    ).toEqual([]);
    // The editor drops "student number required" from the student branch: the case that promised it fails.
    withCase.schema.then = { ...withCase.schema.then, required: [] };
    const { error, response } = await api.POST('/api/sys/publishCatalogueEntry', {
      body: { kind: 'form', document: withCase },
    });
    expect(response.status).toBe(422);
    expect(error?.msg).toContain('منتشر نشد');
    expect((error as { data?: { problems?: unknown[] } }).data?.problems).toEqual([
      expect.objectContaining({
        pointer: '/cases/0/required/0',
        msg: 'آزمون «دانشجو شمارهٔ دانشجویی می‌دهد»: فیلد «studentId» باید با این داده‌ها الزامی باشد، اما نیست.',
      }),
    ]);
    // The live form still holds, and its cases stay with its editors.
    expect((await conferenceOf()).schema).toMatchObject({ then: { required: ['studentId'] } });
    const published = structuredClone(withCase);
    published.schema.then = { ...published.schema.then, required: ['studentId'] };
    await dataOf(api.POST('/api/sys/publishCatalogueEntry', { body: { kind: 'form', document: published } }));
    expect(await conferenceOf()).not.toHaveProperty('cases');
    await dataOf(
      api.POST('/api/sys/revertCatalogueEntry', {
        body: { kind: 'form', identifier: 'conferenceFee', versionId: null },
      }),
    );
  });

  it('judges the next request by the form version just published, not by the one the server checked before', async () => {
    const api = await adminApi(server);
    const money = moneyHelpers(server);
    await money.ready();
    const who = await money.customer();
    // A request under the file's form (the TOEFL desk's): its rules are now in use (a user name of up to 20 letters).
    await money.request(who, 100, { fields: { targetPageUsername: 'student1' } });
    const form = JSON.parse(readFileSync(path.join(schemas, 'forms/deadlineCpr.json'), 'utf8')) as {
      schema: { properties: { targetPageUsername: { maxLength: number } } };
    };
    form.schema.properties.targetPageUsername.maxLength = 5;
    // Its own cases would refuse the edit (their user names are longer): this version goes without them.
    delete (form as { cases?: unknown }).cases;
    await dataOf(api.POST('/api/sys/publishCatalogueEntry', { body: { kind: 'form', document: form } }));
    try {
      const desk = '/api/me/desks/toeflGeneralCpr';
      const inputs = { currency: money.usd.id, amount: 100, requestedPaymentMethodGroup: 0 };
      const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
        items: Array<{ id: number; isCash: boolean }>;
      };
      inputs.requestedPaymentMethodGroup = groups.items.find((g) => !g.isCash)!.id;
      const quote = await post(server, `${desk}/priceInquiry`, inputs, bearer(who.token));
      expect(quote.status).toBe(200);
      const refused = await post(
        server,
        `${desk}/requests`,
        {
          ...inputs,
          quoteId: (quote.body.data as { quoteId: string }).quoteId,
          targetPageAddress: 'https://www.ets.org/toefl/pay',
          targetPageUsername: 'student1',
          targetPagePassword: 'secret',
        },
        { ...bearer(who.token), 'idempotency-key': money.newKey() },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain('نام کاربری');
    } finally {
      await dataOf(
        api.POST('/api/sys/revertCatalogueEntry', {
          body: { kind: 'form', identifier: 'deadlineCpr', versionId: null },
        }),
      );
    }
  });
});

// Two processes need a database and a Redis they can share; `npm test` provides both in the PostgreSQL run.
describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('a second server process', () => {
  it('serves a version published through the first at once', async () => {
    const prefix = server.app.config.redisKeyPrefix;
    const second = await startServer({
      web: false,
      resetDatabase: false,
      env: { SCHEMAS_DIR: schemas, REDIS_KEY_PREFIX: prefix },
    });
    try {
      expect((await conferenceOf(second)).schema.properties.companyName!.title).toBe(
        (await conferenceOf()).schema.properties.companyName!.title,
      );
      const res = await post(
        server,
        '/api/sys/publishCatalogueEntry',
        { kind: 'form', document: withTitle('از فرایند دیگر') },
        bearer(admin),
      );
      expect(res.status).toBe(200);
      // Over Redis pub/sub, well before the fallback poll.
      await until(
        async () => (await conferenceOf(second)).schema.properties.companyName!.title === 'از فرایند دیگر',
        3000,
      );
    } finally {
      await second.stop();
    }
  });
});
