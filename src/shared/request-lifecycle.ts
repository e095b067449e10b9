/**
 * A request's lifecycle as data (schemas/requests/lifecycle.json, decision 037): its states and the events that move
 * it, read here once. Everything that needs a list of states (which a payment link counts as paid, which staff counts
 * as unfulfilled, …) derives it from the table rather than writing it out. Pure: no database.
 */
import table from '../../schemas/requests/lifecycle.json' with { type: 'json' };
import type {
  RequestEvent,
  RequestEventName,
  RequestLifecycle,
  RequestState,
  StateDefinition,
} from '../generated/schemas/requestLifecycle';

export type { RequestEvent, RequestEventName, RequestState };

export const lifecycle = table as RequestLifecycle;
export const requestStates: readonly StateDefinition[] = lifecycle.states;
export const requestEvents: readonly RequestEvent[] = lifecycle.events;

export function requestEventOf(name: RequestEventName): RequestEvent {
  const found = requestEvents.find((e) => e.event === name);
  if (!found) throw new Error(`unknown request event ${name}`);
  return found;
}

/** The state in Persian words («در حال انجام»), as the customer reads it. */
export function stateTitle(state: string): string {
  return requestStates.find((s) => s.state === state)?.title ?? state;
}

/** Whether `event` may start from `state`. */
export const eventAllowedFrom = (event: RequestEventName, state: string): boolean =>
  (requestEventOf(event).from as string[]).includes(state);

/** The states reachable from `start` through the table's events, `start` included. */
export function reachableFrom(start: RequestState): RequestState[] {
  const seen = new Set<RequestState>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const e of requestEvents) {
      if (e.from.includes(state) && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return requestStates.map((s) => s.state).filter((s) => seen.has(s));
}

/** Waiting for its money: where a payment may start. */
export const PAYABLE_STATES: readonly RequestState[] = requestEventOf('paidFromWallet').from;
/** Paid and not yet carried out: where a fulfilment decision may start; every staff count of open work counts these. */
export const UNFULFILLED_STATES: readonly RequestState[] = requestEventOf('done').from;
/** Paid, whatever came after (carried out, failed, invalidated). */
export const PAID_STATES: readonly RequestState[] = reachableFrom(requestEventOf('paidFromWallet').to);

/**
 * What the table itself promises, which its meta-schema cannot say: every state is reachable from the state a
 * request is made in, a final state starts no event, postings name ledger types, notifications name kinds, tasks
 * name task types and audit actions exist. The names are passed in so this stays free of other catalogues.
 */
export function lifecycleProblems(
  doc: RequestLifecycle,
  known: { transactionNames: string[]; notificationKinds: string[]; taskTypes: string[]; auditActions: string[] },
): Array<{ pointer: string; message: string }> {
  const problems: Array<{ pointer: string; message: string }> = [];
  const states = doc.states.map((s) => s.state);
  const finals = new Set(doc.states.filter((s) => s.final).map((s) => s.state));
  const names = new Set<string>();
  doc.events.forEach((e, i) => {
    const at = `/events/${i}`;
    if (names.has(e.event)) problems.push({ pointer: `${at}/event`, message: `event ${e.event} is listed twice` });
    names.add(e.event);
    for (const s of [...e.from, e.to]) {
      if (!states.includes(s)) problems.push({ pointer: at, message: `state ${s} is not in "states"` });
    }
    for (const s of e.from) {
      if (finals.has(s)) problems.push({ pointer: `${at}/from`, message: `${s} is final: no event starts from it` });
    }
    for (const p of e.postings) {
      if (!known.transactionNames.includes(p)) {
        problems.push({ pointer: `${at}/postings`, message: `${p} is not a ledger transaction type's name` });
      }
    }
    if (e.notification !== null && !known.notificationKinds.includes(e.notification)) {
      problems.push({ pointer: `${at}/notification`, message: `${e.notification} is not a notification kind` });
    }
    for (const t of e.task.types ?? []) {
      if (!known.taskTypes.includes(t)) problems.push({ pointer: `${at}/task`, message: `${t} is not a task type` });
    }
    if (e.audit !== null && !known.auditActions.includes(e.audit)) {
      problems.push({ pointer: `${at}/audit`, message: `${e.audit} is not an audit action` });
    }
  });
  const created = doc.events.filter((e) => e.from.length === 0).map((e) => e.to);
  if (created.length !== 1) {
    problems.push({ pointer: '/events', message: 'exactly one event makes a request (an empty "from")' });
  } else {
    const seen = new Set(created);
    let grew = true;
    while (grew) {
      grew = false;
      for (const e of doc.events) {
        if (e.from.some((s) => seen.has(s)) && !seen.has(e.to)) {
          seen.add(e.to);
          grew = true;
        }
      }
    }
    for (const s of states) {
      if (!seen.has(s)) problems.push({ pointer: '/states', message: `state ${s} is reached by no event` });
    }
  }
  return problems;
}
