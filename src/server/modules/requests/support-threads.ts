/**
 * Conversations waiting for staff (the customer wrote last), oldest wait first, and how fast staff answer: the
 * median and 90th percentile of the time from a customer's message (the first since staff last answered) to
 * staff's next answer, over the answers of the last 7 days. Internal notes are neither an answer nor a question.
 */
import { type Kysely, sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { nameOrMobile } from '../../lib/person-names';

type SupportThreads = components['schemas']['SupportThreads'];

const SHOWN = 100;
const PREVIEW = 200;

interface WaitingRow {
  purchaseId: number;
  desk: string;
  firstName: string | null;
  lastName: string | null;
  mobileNo: string | null;
  lastMessage: string;
  waitingSince: Date | string;
  waitingSeconds: number;
  total: number;
}

export async function supportThreads(
  db: Kysely<Database>,
  deskTitle: (desk: string) => string,
): Promise<SupportThreads> {
  // Each request's last public message; waiting when the customer wrote it, since their first message after
  // staff's last answer.
  const { rows } = await sql<WaitingRow>`
    with last as (
      select distinct on (purchase_id) purchase_id, from_staff, body
      from purchase_messages where not internal
      order by purchase_id, id desc
    ),
    waiting as (
      select l.purchase_id, l.body, (
        select min(m.created_at) from purchase_messages m
        where m.purchase_id = l.purchase_id and not m.internal and not m.from_staff
          and m.id > coalesce((
            select max(s.id) from purchase_messages s
            where s.purchase_id = l.purchase_id and s.from_staff and not s.internal
          ), 0)
      ) as since
      from last l where not l.from_staff
    )
    select w.purchase_id as "purchaseId", p.desk, u.first_name as "firstName", u.last_name as "lastName",
      u.mobile_no as "mobileNo", w.body as "lastMessage", w.since as "waitingSince",
      greatest(0, floor(extract(epoch from (now() - w.since))))::int as "waitingSeconds",
      (count(*) over ())::int as total
    from waiting w
    join purchases p on p.id = w.purchase_id
    join users u on u.id = p.user_id
    order by w.since, w.purchase_id
    limit ${SHOWN}`.execute(db);
  const stats = await answerTimes(db);
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      purchaseId: Number(r.purchaseId),
      deskTitle: deskTitle(r.desk),
      customerName: nameOrMobile(r),
      lastMessage: r.lastMessage.slice(0, PREVIEW),
      waitingSince: new Date(r.waitingSince).toISOString(),
      waitingSeconds: r.waitingSeconds,
    })),
    ...stats,
  };
}

/** Median and 90th percentile (seconds) of the first-answer times answered in the last 7 days. */
export async function answerTimes(
  db: Kysely<Database>,
): Promise<Pick<SupportThreads, 'medianFirstAnswerSeconds' | 'p90FirstAnswerSeconds' | 'answeredLastWeek'>> {
  const { rows } = await sql<{ median: number | null; p90: number | null; n: number }>`
    with public as (
      select id, purchase_id, from_staff, created_at,
        lag(from_staff) over (partition by purchase_id order by id) as previous_from_staff
      from purchase_messages where not internal
    ),
    asked as (
      select a.created_at as asked_at, (
        select min(s.created_at) from purchase_messages s
        where s.purchase_id = a.purchase_id and s.from_staff and not s.internal and s.id > a.id
      ) as answered_at
      from public a
      where not a.from_staff and (a.previous_from_staff is null or a.previous_from_staff)
    ),
    waits as (
      select extract(epoch from (answered_at - asked_at)) as seconds from asked
      where answered_at is not null and answered_at >= now() - interval '7 days'
    )
    select
      round(percentile_cont(0.5) within group (order by seconds))::int as median,
      round(percentile_cont(0.9) within group (order by seconds))::int as p90,
      count(*)::int as n
    from waits`.execute(db);
  const row = rows[0];
  return {
    medianFirstAnswerSeconds: row?.median === null || row?.median === undefined ? null : Math.max(0, row.median),
    p90FirstAnswerSeconds: row?.p90 === null || row?.p90 === undefined ? null : Math.max(0, row.p90),
    answeredLastWeek: row?.n ?? 0,
  };
}
