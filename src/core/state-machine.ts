import { ApiError } from "./errors";

/**
 * A state machine declared once as a transition table: for each status, the actions it allows and
 * the status each leads to. Services ask it before they write, and put the same `from` status in
 * their UPDATE's WHERE, so that a race between two actions is refused too.
 */
export type TransitionTable<S extends string, A extends string> = Record<S, Partial<Record<A, S>>>;

export function defineStateMachine<S extends string, A extends string>(what: string, table: TransitionTable<S, A>) {
  return {
    table,
    /** The actions `status` allows, in the table's order. */
    allowed: (status: S): A[] => Object.keys(table[status]) as A[],
    /** The statuses from which `action` may be taken. */
    from: (action: A): S[] => (Object.keys(table) as S[]).filter((s) => table[s][action] !== undefined),
    /** The status `action` leads to from `status`, or a 409 naming the status and the allowed actions. */
    next(status: S, action: A, label = what): S {
      const to = table[status][action];
      if (to === undefined) throw ApiError.invalidTransition(label, status, action, this.allowed(status));
      return to;
    },
  };
}
