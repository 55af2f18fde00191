/**
 * A read sent together with others whose refusal (a 404, a 400) must come in the order of the
 * checks, not in the order the answers come back: its outcome, to take (or throw) where its check
 * stands. `Promise.all` of the plain reads would reject with whichever refusal came back first.
 */
export const outcomeOf = <T>(read: Promise<T>): Promise<() => T> =>
  read.then(
    (value) => () => value,
    (error: unknown) => () => {
      throw error;
    },
  );
