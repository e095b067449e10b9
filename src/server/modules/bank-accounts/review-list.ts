/**
 * The staff page "bank accounts to approve" (api/sys/searchUserBankAccounts): customers' bank accounts with their
 * customer and the ownership review task still open, filtered by ownership, text and registration day. The
 * decisions themselves go through the review task (decideOwnership), so the page and the task queue share them.
 */
import { sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { containsText, textOrId, whereWithinDays } from '../../lib/sql';
import { toEnglishDigits } from '../../../shared/digits';
import { nameOrMobile } from '../../lib/person-names';
import { toAccountDto } from './accounts';

export type StaffBankAccount = components['schemas']['StaffBankAccount'];
export type StaffBankAccountSearch = components['schemas']['StaffBankAccountSearch'];

const OWNERSHIP = { approved: 1, rejected: 0 } as const;

const personName = (first: string | null, last: string | null, mobile: string | null) =>
  first === null && last === null && mobile === null
    ? null
    : nameOrMobile({ firstName: first, lastName: last, mobileNo: mobile });

export async function searchStaffBankAccounts(
  db: DB,
  filter: StaffBankAccountSearch,
): Promise<ListEnvelope<StaffBankAccount>> {
  let q = db
    .selectFrom('userBankAccounts as a')
    .innerJoin('users as u', 'u.id', 'a.userId')
    // The review still undecided (the unique index keeps it to one per account).
    .leftJoin('tasks as t', (join) =>
      join
        .onRef('t.userBankAccountId', '=', 'a.id')
        .on('t.type', '=', 'approveUbaOwnerTask')
        .on('t.state', 'in', ['open', 'claimed']),
    )
    .leftJoin('users as c', 'c.id', 't.claimedBy')
    .leftJoin('users as d', 'd.id', 'a.decidedBy');
  if (filter.ownership === 'waiting') q = q.where('a.ownershipApproved', 'is', null);
  else if (filter.ownership) q = q.where('a.ownershipApproved', '=', OWNERSHIP[filter.ownership]);
  q = whereWithinDays(q, 'a.createdAt', filter.from, filter.to);
  const term = filter.search?.trim();
  if (term) {
    // An IBAN is typed with spaces, dashes or Persian digits; it is stored as IR and 24 digits.
    const compact = toEnglishDigits(term).replace(/[\s-]/g, '').toUpperCase();
    q = q.where((eb) =>
      textOrId(eb, term, {
        text: [
          'u.firstName',
          'u.lastName',
          'u.mobileNo',
          'u.nationalCode',
          'a.ownerName',
          'a.bankName',
          sql<string>`coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')`,
        ],
        also: compact ? [containsText(eb, ['a.iban'], compact)] : [],
        ids: ['a.id'],
        idTerm: compact,
      }),
    );
  }
  const page = await pageOf(q, filter, (x) =>
    x
      .select([
        'a.id',
        'a.userId',
        'a.iban',
        'a.bankCode',
        'a.bankName',
        'a.ownerName',
        'a.ownershipApproved',
        'a.decisionReason',
        'a.createdAt',
        'a.decidedAt',
        'u.firstName',
        'u.lastName',
        'u.mobileNo',
        'u.nationalCode',
        't.id as taskId',
        'c.firstName as claimerFirstName',
        'c.lastName as claimerLastName',
        'c.mobileNo as claimerMobileNo',
        'd.firstName as deciderFirstName',
        'd.lastName as deciderLastName',
        'd.mobileNo as deciderMobileNo',
      ])
      // Waiting accounts oldest first (the longest wait on top); the others newest first.
      .orderBy('a.createdAt', filter.ownership === 'waiting' ? 'asc' : 'desc')
      .orderBy('a.id', filter.ownership === 'waiting' ? 'asc' : 'desc'),
  );
  return {
    total: page.total,
    items: page.items.map((r) => ({
      ...toAccountDto(r),
      customerName: nameOrMobile(r),
      mobileNo: r.mobileNo,
      nationalCode: r.nationalCode,
      taskId: r.taskId === null ? null : Number(r.taskId),
      taskClaimedByName: personName(r.claimerFirstName, r.claimerLastName, r.claimerMobileNo),
      decidedByName: personName(r.deciderFirstName, r.deciderLastName, r.deciderMobileNo),
    })),
  };
}
