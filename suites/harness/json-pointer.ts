/** The value at a JSON pointer (RFC 6901) in a value; undefined when the path is not there. */
export function atPointer(value: unknown, pointer: string): unknown {
  let at = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
