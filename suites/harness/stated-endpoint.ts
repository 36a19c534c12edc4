import { fillEndpoint, type EndpointValues, type StatedEndpoint } from '../../spec/profile.ts';
import { cause } from './causes.ts';
import type { Conformance } from './conformance.ts';

export { fillEndpoint, type EndpointValues };

/**
 * An endpoint the document names without a path, as the target's profile states it
 * (shapes.endpoints), with its path placeholders filled from `values`: the one reading of those
 * entries. The test ends not-run when the profile states none. `used` names the values the path
 * took; a value the path does not hold travels where the document shows it, which the caller
 * already does (the query of a GET, the body of a POST).
 */
export function statedEndpoint(
  t: Conformance,
  name: StatedEndpoint,
  values: EndpointValues,
): { method: string; path: string; used: ReadonlySet<string> } {
  const stated = t.profile.shapes.endpoints?.[name];
  if (stated === undefined)
    t.notRun(
      `the profile names no path for ${name} (shapes.endpoints)`,
      cause.shape(`shapes.endpoints.${name}`),
    );
  return fillEndpoint(name, stated, values);
}
