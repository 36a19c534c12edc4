import { cause } from './causes.ts';
import type { Conformance } from './conformance.ts';

/**
 * The `authorization` header of §5 for a secret: a JWT always as `Bearer <jwt>`, an API key in
 * the form the profile states (shapes.authorizationHeader; decision auth.header.format), else
 * the test is not-run. One place, so every suite sends the header the same way.
 */
export function authorization(t: Conformance, secret: string): Record<string, string> {
  const jwt = secret.split('.').length === 3;
  const form = t.profile.shapes.authorizationHeader;
  if (!jwt && form === undefined)
    t.notRun(
      'the profile does not say how an API key travels in the authorization header',
      cause.shape('shapes.authorizationHeader'),
    );
  // A target taking both forms is sent the Bearer one (a latitude run sends the other too).
  return { authorization: jwt || form !== 'raw' ? `Bearer ${secret}` : secret };
}
