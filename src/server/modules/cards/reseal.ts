/**
 * Key rotation for sealed card numbers (decision 021): at start, every card sealed under a key in
 * FIELD_ENCRYPTION_OLD_KEYS is sealed again under the current key, so the old key can be dropped afterwards, and its
 * keyed hash made again under the current key (a plain SHA-256 of older versions too, decision 031). Cards
 * under a key this process does not hold are left alone and counted in a warning (never which cards).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/database';
import type { FieldCipher } from '../../lib/field-cipher';
import { cardSealContext } from './service';

export async function resealCards(
  db: DB,
  cipher: FieldCipher,
  log: FastifyBaseLogger,
): Promise<{ resealed: number; unreadable: number }> {
  const counts = { resealed: 0, unreadable: 0 };
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('userCards')
      .select(['id', 'userId', 'cardSealed', 'cardHash'])
      .where('id', '>', after)
      // Sealed under an older key, or hashed plainly or under an older key (decision 031): both follow the current key.
      .where((eb) =>
        eb.or([
          eb('cardSealed', 'not like', `enc:v1:${cipher.keyId}:%`),
          eb('cardHash', 'not like', `k:${cipher.keyId}:%`),
        ]),
      )
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      const context = cardSealContext(row.userId);
      let resealed: string;
      let cardHash: string;
      try {
        if (!cipher.canOpen(row.cardSealed)) throw new Error('unknown key');
        const cardNumber = cipher.open(row.cardSealed, context);
        resealed = cipher.isCurrent(row.cardSealed) ? row.cardSealed : cipher.seal(cardNumber, context);
        cardHash = cipher.cardHash(cardNumber);
      } catch {
        counts.unreadable += 1;
        continue;
      }
      await db
        .updateTable('userCards')
        .set({ cardSealed: resealed, cardHash })
        .where('id', '=', row.id)
        .where('cardSealed', '=', row.cardSealed)
        .execute();
      counts.resealed += 1;
    }
  }
  if (counts.resealed > 0) log.info({ resealed: counts.resealed }, 'stored card numbers sealed under the current key');
  if (counts.unreadable > 0) {
    log.warn(
      { unreadable: counts.unreadable },
      'stored card numbers sealed under a key this server does not hold (see FIELD_ENCRYPTION_OLD_KEYS)',
    );
  }
  return counts;
}
