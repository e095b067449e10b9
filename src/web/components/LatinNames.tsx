import { Latin } from './Latin';

/** A Latin name with a digit in it: a form's or a visa's official name (F-1, I-901, I-20). */
const LATIN_NAME = /([A-Za-z]+-?\d[\w-]*)/;

/**
 * Persian text that names forms and visas by their official Latin names («ویزای F-1», «SEVIS I-901»): those names keep
 * their Latin digits (they are read and searched as written; shared/format/latin.ts lists them among the exceptions),
 * every other number in the text stays as the text has it.
 */
export function WithLatinNames({ text }: { text: string }) {
  // split with a capturing group puts the names at the odd places
  return <>{text.split(LATIN_NAME).map((part, i) => (i % 2 === 1 ? <Latin key={i}>{part}</Latin> : part))}</>;
}
