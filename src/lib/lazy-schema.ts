/**
 * A schema built the first time it is asked for, then kept. The parts loaded after the first
 * screen (the trail, presence) read their responses with it: built at import, their schemas were
 * kept in the heap from start-up on, though a page whose server has no trail or team (nginx, a
 * static host) never reads one.
 */
export function lazySchema<T>(build: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= build();
    return made;
  };
}
