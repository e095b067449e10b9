/**
 * A person's name as a stranger may read it: each word's first letter and three stars («مریم احمدی» → «م*** ا***»).
 * Never falls back to a mobile number or any other identifier: no name reads «***».
 */
export function maskedName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const words = [firstName, lastName]
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.trim().split(/\s+/u))
    .filter(Boolean);
  if (words.length === 0) return '***';
  return words.map((word) => `${[...word][0]}***`).join(' ');
}

/**
 * What a payment link shows of its requester, to a guest and to the payer alike (decision 028, as Wise and
 * Flywire do): the first name and the last name's initial («سارا کریمی» → «سارا ک.»). Nothing else identifies them.
 */
export function firstNameAndInitial(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const first = firstName?.trim() ?? '';
  const initial = [...(lastName?.trim() ?? '')][0];
  if (!first) return maskedName(firstName, lastName);
  return initial ? `${first} ${initial}.` : first;
}
