/** Whether rial amounts a customer decides on also show their toman equivalent; on by default, remembered. */
import { atomWithStorage } from 'jotai/utils';

export const showTomanAtom = atomWithStorage<boolean>('showToman', true, undefined, { getOnInit: true });
