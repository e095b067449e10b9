/**
 * The desk page's side of the desk funnel (decision 046), loaded lazily beside the form (never on the home page):
 * one visit per opening of a desk's form under a random id tied to no one, reported as it goes — opened at once, then
 * first input, the name (never the value) of the last field touched and the steps reached, batched a few seconds
 * after the last change and sent at once when the page is hidden or left, and submitted when the request is made.
 * Reports go outside the app's API client (no progress bar, no settled mark to wait on), with `keepalive` only when
 * the page is being left, and never block or slow typing: the listeners only note a field name.
 */
import type { Desk, FormType } from '../../lib/queries/catalogue';
import { effectiveForm } from '../../../shared/catalogue';
import { funnelFieldOfId, funnelFieldsOf, funnelStepsOf } from '../../../shared/funnel';

/** Quiet time after the last change before a report goes. */
const BATCH_MS = 3000;
const ENDPOINT = '/api/public/recordDeskFunnel';

interface Pending {
  input?: true;
  field?: string;
  steps?: number[];
  submitted?: true;
}

export interface FunnelVisit {
  /** The request was made: the visit is done and did not leave. */
  submitted(): void;
  /** The form's step `index` (0 is the first) is shown. */
  stepReached(index: number): void;
  /** The form is gone (the page left): what is pending goes now. */
  stop(): void;
}

let active: { desk: string; visit: FunnelVisit } | null = null;

/**
 * Sends a report; `leaving` (the page is being hidden or unloaded) asks the browser to finish it after the page is
 * gone (`keepalive`). Other reports are plain requests: a keepalive one is left to the browser and never reported
 * finished to tools that wait for the page's requests.
 */
function send(body: Record<string, unknown>, leaving = false): void {
  try {
    void fetch(ENDPOINT, {
      method: 'POST',
      ...(leaving && { keepalive: true }),
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify(body),
    })
      // Read to its end, so the request is finished (an unread answer stays open in the browser's eyes).
      .then((answer) => answer.text())
      .catch(() => undefined);
  } catch {
    // Counting must never break the page.
  }
}

/** Starts a visit of `desk`'s form: reports it opened and watches the fields of the desk page for input and touch. */
export function watchDesk(desk: Desk, form: FormType): FunnelVisit {
  active?.visit.stop();
  const { schema, uiSchema } = effectiveForm(desk, form);
  const fields = [...funnelFieldsOf(schema).keys()];
  const stepCount = funnelStepsOf(uiSchema).length;
  const base = { desk: desk.identifier, visit: crypto.randomUUID() };
  let pending: Pending = {};
  let sentField: string | undefined;
  let inputSent = false;
  const stepsSent = new Set<number>();
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (leaving = false) => {
    clearTimeout(timer);
    timer = undefined;
    if (Object.keys(pending).length === 0) return;
    send({ ...base, ...pending }, leaving);
    pending = {};
  };
  const leave = () => flush(true);
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => flush(), BATCH_MS);
  };
  const touched = (event: Event) => {
    if (done || !event.isTrusted) return;
    const target = event.target;
    if (!(target instanceof Element) || !target.closest('[data-testid="desk-page"] form')) return;
    // Typed or chosen anywhere in the form (a select's hidden input too) is input; the field is the drawn one.
    if (event.type !== 'focusin' && !inputSent) {
      inputSent = true;
      pending.input = true;
    }
    const drawn = target.closest('[id^="root_"]');
    const field = drawn ? funnelFieldOfId(drawn.id, fields) : null;
    if (field && field !== sentField) {
      sentField = field;
      pending.field = field;
    }
    if (Object.keys(pending).length > 0) later();
  };
  const hidden = () => {
    if (document.visibilityState === 'hidden') leave();
  };
  const listeners: Array<[string, EventListener]> = [
    ['focusin', touched],
    ['input', touched],
    ['change', touched],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener, { capture: true, passive: true });
  document.addEventListener('visibilitychange', hidden);
  window.addEventListener('pagehide', leave);
  const end = () => {
    for (const [type, listener] of listeners) document.removeEventListener(type, listener, { capture: true });
    document.removeEventListener('visibilitychange', hidden);
    window.removeEventListener('pagehide', leave);
    flush();
    done = true;
    if (active?.visit === visit) active = null;
  };
  const visit: FunnelVisit = {
    submitted() {
      if (done) return;
      // With what is still waiting (the steps reached since the last report), but not the last field: it did not leave.
      delete pending.field;
      pending.submitted = true;
      end();
    },
    stepReached(index) {
      if (done || !Number.isInteger(index) || index < 0 || index >= stepCount || stepsSent.has(index)) return;
      stepsSent.add(index);
      pending.steps = [...(pending.steps ?? []), index];
      later();
    },
    stop: end,
  };
  send(base);
  active = { desk: desk.identifier, visit };
  return visit;
}

/**
 * The wizard tells the funnel a step of `desk`'s form is shown (0 is the first). Nothing happens when no visit of
 * that desk is open or the form has no such step.
 */
export function funnelStepReached(desk: string, stepIndex: number): void {
  if (active?.desk === desk) active.visit.stepReached(stepIndex);
}
