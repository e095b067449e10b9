/** Whether the staff side navigation is drawn, apart from the navigation itself (a lazy chunk: staff pages only). */
import { useAtomValue } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { useLocation } from 'react-router-dom';
import { staffPagesAtom } from '../../lib/policy';
import { pathOf } from '../../lib/routes';

export const staffNavCollapsedAtom = atomWithStorage('staffNavCollapsed', false, undefined, { getOnInit: true });

/** Whether the side navigation is drawn here and how: on management pages for staff only. */
export function useStaffNav(): 'none' | 'open' | 'collapsed' {
  const staffPages = useAtomValue(staffPagesAtom);
  const collapsed = useAtomValue(staffNavCollapsedAtom);
  const { pathname } = useLocation();
  const home = pathOf('management');
  if (staffPages.length === 0 || (pathname !== home && !pathname.startsWith(`${home}/`))) return 'none';
  return collapsed ? 'collapsed' : 'open';
}
