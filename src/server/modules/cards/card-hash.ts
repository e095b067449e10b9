/** ZarinPal's card_hash: SHA-256 of the 16-digit card number, upper-case hex (what its verify reports). */
import { createHash } from 'node:crypto';

export const cardHashOf = (cardNumber: string) => createHash('sha256').update(cardNumber).digest('hex').toUpperCase();
