/**
 * The desk page's hold on the desk funnel (decision 046): while the form of an open desk is shown, a visit is open.
 * When the form gives way to the pay step because the request was made (`?purchase=`), the visit is submitted; when
 * the page leaves the desk, it ends. The counting code (funnel.ts) loads lazily, beside the form; this hook is all the
 * page itself carries.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Desk, FormType } from '../../lib/queries/catalogue';

export function useDeskFunnel(desk: Desk | undefined, form: FormType | undefined, shown: boolean, submitted: boolean) {
  const formShown = Boolean(desk && form && shown && !submitted && !desk.underConstruction);
  // Read by the cleanup below, after the render that hid the form: was it hidden by the request being made? Set in a
  // layout effect, which runs before the passive effects' cleanups of the same commit.
  const madeRequest = useRef(submitted);
  useLayoutEffect(() => {
    madeRequest.current = submitted;
  }, [submitted]);
  useEffect(() => {
    if (!formShown || !desk || !form) return;
    const visit = import('./funnel').then((m) => m.watchDesk(desk, form)).catch(() => null);
    return () => {
      void visit.then((v) => (madeRequest.current ? v?.submitted() : v?.stop()));
    };
  }, [formShown, desk, form]);
}
