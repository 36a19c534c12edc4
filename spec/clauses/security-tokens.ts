import { defineClauses } from './types.ts';

/**
 * Level `security`: what no trustworthy server may do although the document does not spell
 * it out. Each clause hangs on the section whose promise it protects.
 *
 * §2.5 and §5 rule 5: project-user tokens come from user-token and embed-token, that is from
 * the service. A bearer token the service did not issue, in the form it issued it, must not
 * act as anyone. The exact status of the refusal stays open (clause auth.token.invalid).
 */
export const securityTokens = defineClauses([
  {
    id: 'security.tokens.signature-checked',
    section: '5',
    level: 'security',
    summary:
      'A token whose claims were changed after the service signed it (same header, old signature) is refused wherever bearer tokens are taken.',
  },
  {
    id: 'security.tokens.alg-none-refused',
    section: '5',
    level: 'security',
    summary: 'An unsigned token (header alg "none") is refused wherever bearer tokens are taken.',
  },
  {
    id: 'security.tokens.key-confusion-refused',
    section: '5',
    level: 'security',
    summary:
      'A token MACed (HS256, HS384, HS512) with the service’s own public key as the secret is refused.',
  },
  {
    id: 'security.tokens.foreign-key-refused',
    section: '5',
    level: 'security',
    summary:
      'A token signed with a key the service does not hold is refused, even when its header names the service’s key id.',
  },
  {
    id: 'security.tokens.unknown-kid-refused',
    section: '5',
    level: 'security',
    summary:
      'A token whose header names a key id the service does not publish is refused, whatever key it was signed with.',
  },
  {
    id: 'security.tokens.header-key-ignored',
    section: '5',
    level: 'security',
    summary:
      'A key the token brings along (an embedded jwk header, or a jku URL to fetch keys from) is never trusted to verify it.',
  },
  {
    id: 'security.tokens.embed-token-named-organization',
    section: '4.8',
    level: 'security',
    summary:
      'A token from embed-token acts within the project organization the request named, never one the user held before.',
  },
]);
