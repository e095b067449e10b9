/**
 * A conversation per request (issue 31, point 3) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): a customer's message reaches staff's waiting queue (oldest first); a staff reply reaches the
 * customer live through the real laravel-echo client and notifies them once (staffReply); an internal note never
 * reaches the customer (no operation, no live event, no notification); another customer can neither read nor write
 * the thread; length, emptiness and rate limits answer in Persian; text comes back literally; and the staff home's
 * median and 90th-percentile time to first answer.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { toPersianDigits } from '../../src/shared/digits';
import messages from '../../schemas/messages/fa.json';
import { png, uploadForm } from '../support/images';
import { connectEcho, nextEvent, subscription, waitConnected } from '../support/echo';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

const fa = messages.messages;

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };
withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['viewRequests']);
});

interface Message {
  id: number;
  fromStaff: boolean;
  internal: boolean;
  body: string;
  authorName?: string;
}
interface Thread {
  purchaseId: number;
  deskTitle: string;
  customerName: string;
  lastMessage: string;
  waitingSeconds: number;
}
interface Threads {
  items: Thread[];
  total: number;
  medianFirstAnswerSeconds: number | null;
  p90FirstAnswerSeconds: number | null;
  answeredLastWeek: number;
}

const write = (who: Customer, purchase: number, body: string) =>
  post(server, '/api/me/sendPurchaseMessage', { purchase, body }, bearer(who.token));
const answer = (purchase: number, body: string, internal = false) =>
  post(server, '/api/sys/sendStaffPurchaseMessage', { purchase, body, internal }, bearer(staff.token));
const customerThread = async (who: Customer, purchase: number) => {
  const res = await post(server, '/api/me/searchPurchaseMessages', { purchase }, bearer(who.token));
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { items: Message[] }).items;
};
const threads = async () => {
  const res = await post(server, '/api/sys/searchSupportThreads', {}, bearer(staff.token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Threads;
};
const uidOf = async (who: Customer) =>
  ((await post(server, '/api/me/fetchUserData', undefined, bearer(who.token))).body.data as { uid: string }).uid;
const staffReplies = (userId: number) =>
  db
    .selectFrom('notifications')
    .select(['purchaseId', 'text'])
    .where('userId', '=', userId)
    .where('kind', '=', 'staffReply')
    .execute();

describe('a conversation per request', () => {
  it("puts a customer's message in staff's waiting queue, oldest first, and a reply reaches them live", async () => {
    const alice = await money.customer();
    const bob = await money.customer();
    const first = await money.request(alice, 10);
    const second = await money.request(bob, 10);
    expect((await write(bob, second.id, 'سلام، وضعیت درخواست من چیست؟')).status).toBe(200);
    const sent = await write(alice, first.id, 'پرداخت را انجام دادم.');
    expect(sent.status, sent.body.msg).toBe(200);
    // Alice wrote two hours ago: her conversation waited longest.
    await db
      .updateTable('purchaseMessages')
      .set({ createdAt: sql<Date>`now() - interval '2 hours'` })
      .where('purchaseId', '=', first.id)
      .execute();

    const queue = await threads();
    const ours = queue.items.filter((t) => [first.id, second.id].includes(t.purchaseId));
    expect(ours.map((t) => t.purchaseId)).toEqual([first.id, second.id]);
    expect(ours[0]).toMatchObject({ customerName: 'سارا کریمی', lastMessage: 'پرداخت را انجام دادم.' });
    expect(ours[0]!.deskTitle).not.toBe('');
    expect(ours[0]!.waitingSeconds).toBeGreaterThanOrEqual(7200);
    expect(ours[1]!.waitingSeconds).toBeLessThan(7200);

    const echo = connectEcho(server.url, alice.token);
    try {
      await waitConnected(echo);
      const uid = await uidOf(alice);
      const joined = subscription(echo, `private-user.${uid}`);
      const arrived = nextEvent<{ purchaseId: number; messageId: number; fromStaff: boolean }>(
        echo.private(`user.${uid}`),
        '.purchase.message',
      );
      expect(await joined).toBe('joined');
      const reply = await answer(first.id, 'پرداخت شما رسید؛ امروز انجام می‌شود.');
      expect(reply.status, reply.body.msg).toBe(200);
      const event = await arrived;
      expect(event).toEqual({ purchaseId: first.id, messageId: (reply.body.data as Message).id, fromStaff: true });
    } finally {
      echo.disconnect();
    }
    const thread = await customerThread(alice, first.id);
    expect(thread.map((m) => [m.fromStaff, m.body])).toEqual([
      [false, 'پرداخت را انجام دادم.'],
      [true, 'پرداخت شما رسید؛ امروز انجام می‌شود.'],
    ]);
    expect(thread.every((m) => m.authorName === undefined)).toBe(true);
    const notified = await staffReplies(alice.userId);
    expect(notified).toHaveLength(1);
    expect(notified[0]!.purchaseId).toBe(first.id);
    // Named as the timeline names the request: its desk and its number, in Persian digits.
    expect(notified[0]!.text).toBe(`کارشناس به پیام شما دربارهٔ «آزمون تافل (${toPersianDigits(first.id)})» پاسخ داد.`);
    // Answered: no longer waiting; Bob still is.
    const after = (await threads()).items.map((t) => t.purchaseId);
    expect(after).not.toContain(first.id);
    expect(after).toContain(second.id);
  });

  it('never shows an internal note to the customer: no operation, no live event, no notification', async () => {
    const carol = await money.customer();
    const purchase = await money.request(carol, 10);
    await write(carol, purchase.id, 'کی انجام می‌شود؟');
    const note = 'NOTE-ONLY-STAFF: کارت مشتری مشکوک است';
    const echo = connectEcho(server.url, carol.token);
    const seen: Array<{ messageId: number }> = [];
    try {
      await waitConnected(echo);
      const uid = await uidOf(carol);
      const joined = subscription(echo, `private-user.${uid}`);
      const channel = echo.private(`user.${uid}`);
      channel.listen('.purchase.message', (e: { messageId: number }) => seen.push(e));
      const publicReply = nextEvent<{ messageId: number }>(channel, '.purchase.message');
      expect(await joined).toBe('joined');
      const noted = await answer(purchase.id, note, true);
      expect(noted.status, noted.body.msg).toBe(200);
      expect(noted.body.data).toMatchObject({ internal: true, fromStaff: true });
      // The public reply leaves after the note on the same channel: once it arrived, the note would have too.
      const reply = await answer(purchase.id, 'فردا انجام می‌شود.');
      expect((await publicReply).messageId).toBe((reply.body.data as Message).id);
      expect(seen.map((e) => e.messageId)).toEqual([(reply.body.data as Message).id]);
    } finally {
      echo.disconnect();
    }
    const thread = await customerThread(carol, purchase.id);
    expect(thread.map((m) => m.body)).toEqual(['کی انجام می‌شود؟', 'فردا انجام می‌شود.']);
    const detail = await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(carol.token));
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toContain('NOTE-ONLY-STAFF');
    const mine = await post(server, '/api/me/searchMyPurchases', {}, bearer(carol.token));
    expect(JSON.stringify(mine.body)).not.toContain('NOTE-ONLY-STAFF');
    expect((await staffReplies(carol.userId)).map((n) => n.text).join()).not.toContain('NOTE-ONLY-STAFF');
    expect(await staffReplies(carol.userId)).toHaveLength(1);
    const all = await db.selectFrom('notifications').select('text').where('userId', '=', carol.userId).execute();
    expect(JSON.stringify(all)).not.toContain('NOTE-ONLY-STAFF');

    // Staff see the note, marked internal, with the author's name.
    const forStaff = await post(
      server,
      '/api/sys/searchStaffPurchaseMessages',
      { purchase: purchase.id },
      bearer(staff.token),
    );
    const items = (forStaff.body.data as { items: Message[] }).items;
    expect(items.find((m) => m.body === note)).toMatchObject({ internal: true, fromStaff: true });
    expect(items.every((m) => typeof m.authorName === 'string')).toBe(true);
    // A customer cannot send an internal note, nor use the staff operations.
    const sneaky = await post(
      server,
      '/api/me/sendPurchaseMessage',
      { purchase: purchase.id, body: 'x', internal: true },
      bearer(carol.token),
    );
    expect(sneaky.status).toBe(400);
    expect(
      (await post(server, '/api/sys/searchStaffPurchaseMessages', { purchase: purchase.id }, bearer(carol.token)))
        .status,
    ).toBe(403);
  });

  it("refuses another customer's thread with the answer a missing request gets", async () => {
    const dave = await money.customer();
    const erin = await money.customer();
    const purchase = await money.request(dave, 10);
    await write(dave, purchase.id, 'پیام خصوصی');
    const missing = await post(server, '/api/me/searchPurchaseMessages', { purchase: 999_999 }, bearer(erin.token));
    expect(missing.status).toBe(404);
    const read = await post(server, '/api/me/searchPurchaseMessages', { purchase: purchase.id }, bearer(erin.token));
    expect(read.status).toBe(404);
    expect(read.body.msg).toBe(missing.body.msg);
    expect(JSON.stringify(read.body)).not.toContain('پیام خصوصی');
    const wrote = await write(erin, purchase.id, 'سلام');
    expect(wrote.status).toBe(404);
    expect(wrote.body.msg).toBe(missing.body.msg);
    expect((await customerThread(dave, purchase.id)).map((m) => m.body)).toEqual(['پیام خصوصی']);
  });

  it('limits length and rate with Persian messages, and returns text literally', async () => {
    const frank = await money.customer();
    const purchase = await money.request(frank, 10);
    const long = await write(frank, purchase.id, 'ا'.repeat(2001));
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe(fa['conversation.body.maxLength']);
    const empty = await write(frank, purchase.id, '   \n ');
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe(fa['conversation.empty']);
    const html = '<script>alert(1)</script><b>پررنگ</b> **نه** &amp;';
    expect((await write(frank, purchase.id, html)).status).toBe(200);
    expect((await write(frank, purchase.id, 'ا'.repeat(2000))).status).toBe(200);
    expect((await customerThread(frank, purchase.id))[0]!.body).toBe(html);
    for (let i = 3; i <= 10; i++) expect((await write(frank, purchase.id, `پیام ${i}`)).status).toBe(200);
    const limited = await write(frank, purchase.id, 'یکی دیگر');
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/^پیام‌های شما بیش از حد مجاز است\. لطفا .+ دیگر دوباره بفرستید\.$/);
    // Staff are not held back by a customer's limit.
    expect((await answer(purchase.id, 'دریافت شد')).status).toBe(200);
  });

  it("attaches an image or a PDF the sender uploaded, never someone else's; a PDF is downloaded, never shown", async () => {
    const gina = await money.customer();
    const hank = await money.customer();
    const purchase = await money.request(gina, 10);
    const upload = async (who: Customer, bytes: Buffer, name: string, prefix: string, type: string) => {
      const res = await fetch(`${server.url}/api/me/uploadFile`, {
        method: 'POST',
        headers: bearer(who.token),
        body: uploadForm(bytes, name, prefix, type),
      });
      return { status: res.status, body: (await res.json()) as { path?: string; msg: string } };
    };
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
    const document = await upload(gina, pdf, 'invoice.pdf', 'purchaseMessage', 'application/pdf');
    expect(document.status, document.body.msg).toBe(200);
    expect(document.body.path).toMatch(/\.pdf$/);
    // A PDF only where a conversation takes it: not as a national card.
    const card = await upload(gina, pdf, 'card.pdf', 'nationalCard', 'application/pdf');
    expect(card.status).toBe(415);
    expect(card.body.msg).toBe(fa['upload.notImage']);
    const notPdf = await upload(gina, Buffer.from('<html>%%EOF</html>'), 'x.pdf', 'purchaseMessage', 'application/pdf');
    expect(notPdf.status).toBe(415);
    expect(notPdf.body.msg).toBe(fa['upload.notImageOrPdf']);
    const image = await upload(gina, await png(), 'shot.png', 'purchaseMessage', 'image/png');
    expect(image.status).toBe(200);

    const withPdf = await post(
      server,
      '/api/me/sendPurchaseMessage',
      { purchase: purchase.id, body: '', attachment: document.body.path },
      bearer(gina.token),
    );
    expect(withPdf.status, withPdf.body.msg).toBe(200);
    const withImage = await post(
      server,
      '/api/me/sendPurchaseMessage',
      { purchase: purchase.id, body: 'تصویر خطا', attachment: image.body.path },
      bearer(gina.token),
    );
    expect(withImage.status, withImage.body.msg).toBe(200);
    // Hank cannot attach Gina's upload to his own request.
    const his = await money.request(hank, 10);
    const stolen = await post(
      server,
      '/api/me/sendPurchaseMessage',
      { purchase: his.id, body: 'x', attachment: document.body.path },
      bearer(hank.token),
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body.msg).toBe(fa['conversation.attachmentNotFound']);

    // Staff open both through their signed links; the PDF comes as a download.
    const forStaff = await post(
      server,
      '/api/sys/searchStaffPurchaseMessages',
      { purchase: purchase.id },
      bearer(staff.token),
    );
    const [first, second] = (forStaff.body.data as { items: Array<{ attachmentUrl: string | null }> }).items;
    const file = await fetch(server.url + first!.attachmentUrl!);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await fetch(server.url + second!.attachmentUrl!)).headers.get('content-type')).toBe('image/png');
    const attached = await db
      .selectFrom('uploads')
      .select('attachedAt')
      .where('path', '=', document.body.path!)
      .executeTakeFirstOrThrow();
    expect(attached.attachedAt).not.toBeNull();
  });

  it("gives the staff home the median and 90th percentile of the time to staff's first answer over 7 days", async () => {
    // Only this test's conversations count: earlier ones move out of the week.
    await db
      .updateTable('purchaseMessages')
      .set({ createdAt: sql<Date>`created_at - interval '30 days'` })
      .execute();
    const grace = await money.customer();
    const waits = [600, 60, 240, 120, 180];
    const stamp = async (id: number, secondsAgo: number) =>
      db
        .updateTable('purchaseMessages')
        .set({ createdAt: sql<Date>`now() - make_interval(secs => ${secondsAgo})` })
        .where('id', '=', id)
        .execute();
    const converse = async (wait: number, askedSecondsAgo: number, withNote = false) => {
      const purchase = await money.request(grace, 10);
      const asked = await write(grace, purchase.id, 'سوال');
      await stamp((asked.body.data as Message).id, askedSecondsAgo);
      if (withNote) {
        // A second question before the answer: the wait still runs from the first.
        const second = await write(grace, purchase.id, 'سوال دوم، پیش از پاسخ');
        await stamp((second.body.data as Message).id, askedSecondsAgo - 5);
        const note = await answer(purchase.id, 'یادداشت', true);
        await stamp((note.body.data as Message).id, askedSecondsAgo - 10);
      }
      const reply = await answer(purchase.id, 'پاسخ');
      await stamp((reply.body.data as Message).id, askedSecondsAgo - wait);
    };
    for (const wait of waits) await converse(wait, 86_400);
    // An internal note is not an answer: this wait is 300 s.
    await converse(300, 90_000, true);
    // Answered eight days ago: out of the week.
    await converse(10_000, 8 * 86_400 + 10_000);

    // Waits 60, 120, 180, 240, 300, 600: median (180 + 240) / 2, 90th percentile 300 + 0.5 × 300.
    const figures = await threads();
    expect(figures).toMatchObject({ medianFirstAnswerSeconds: 210, p90FirstAnswerSeconds: 450, answeredLastWeek: 6 });
  });
});
