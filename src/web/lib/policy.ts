/**
 * What the signed-in person may open, from the server's access object (api/users/getUserAccess): its `menu`
 * names the staff screens their actions open, its `actions` the actions themselves (as the contract's
 * `x-access: staff:<action>` names them). Navigation offers only these; a management route outside them shows
 * the Persian no-access state instead of a page whose calls the server would refuse.
 */
import { atom } from 'jotai';
import { accessAtom } from './session';
import { staffPagesOf } from './staff-pages';

/** The staff screens the signed-in person may open (none for a guest or a customer). */
export const staffPagesAtom = atom((get) => staffPagesOf(get(accessAtom)));

/** Whether the signed-in person holds an action (as the contract's `x-access: staff:<action>` names it). */
export const canAtom = atom((get) => {
  const actions = new Set(get(accessAtom).actions);
  return (action: string) => actions.has(action);
});
