// A call of a fixture (a merchant's module or the sandbox's control API) within a bounded wait: a
// fixture that never settles stops the property it serves, said in the run's notes, instead of
// holding the run past its time limit.

/** The longest a fixture call may take (ms). */
export const FIXTURE_TIMEOUT_MS = 30_000;

/** What `call` resolves to, or an error naming the fixture when it takes longer than `ms`. */
export async function fixtureCall<T>(what: string, call: () => Promise<T>, ms = FIXTURE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The fixture ${what} did not settle within ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([call(), late]);
  } finally {
    clearTimeout(timer);
  }
}
