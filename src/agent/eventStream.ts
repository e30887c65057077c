/**
 * Turns a push-style producer (`run(emit)`) into an async iterator. Ending the iteration
 * early (break, return) calls `stop` and waits for the producer to settle, so nothing keeps
 * running behind a consumer that went away.
 */
export async function* eventStream<T>(run: (emit: (item: T) => void) => Promise<unknown>, stop: () => void): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let failure: { error: unknown } | undefined;
  const producer = run((item) => {
    queue.push(item);
    wake?.();
  }).then(
    () => {},
    (error: unknown) => {
      failure = { error };
    },
  ).finally(() => {
    settled = true;
    wake?.();
  });
  try {
    for (;;) {
      while (queue.length) yield queue.shift() as T;
      if (settled) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure) throw failure.error;
  } finally {
    if (!settled) {
      stop();
      await producer;
    }
  }
}
