/**
 * Runs tasks one at a time per key, in arrival order, and tasks of other keys in parallel.
 * Deliveries arrive concurrently (Parley sends several at once), so without this two deliveries
 * of one event could both pass the duplicate check, or an older status could be handled while a
 * newer one is still running and finish last.
 */
export function queueByKey(): <Result>(key: string, task: () => Promise<Result>) => Promise<Result> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const result = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => {});
    tails.set(key, tail);
    // The last task of a key removes it, so the map holds only keys with work in flight.
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return result;
  };
}
