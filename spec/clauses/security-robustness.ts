import { defineClauses } from './types.ts';

/**
 * Level `security`: what no trustworthy server may do although the document does not spell
 * it out. Each clause hangs on the section whose promise it protects.
 */
export const securityRobustness = defineClauses([
  {
    id: 'errors.refused.changes-nothing',
    section: '7',
    level: 'security',
    summary:
      'A request refused for what its body, path or headers hold leaves every resource as it was: no partial write survives the refusal.',
  },
  {
    id: 'errors.client-input.no-server-error',
    section: '7',
    level: 'security',
    summary:
      'Nothing a client sends (however deep, large or malformed) gets a 5xx answer, or leaves the resources it named unusable for later requests.',
  },
  {
    id: 'errors.malformed-http.answered',
    section: '7',
    level: 'security',
    summary:
      'A request the HTTP layer cannot frame gets a 4xx or a closed connection: no 5xx, no answer that is not HTTP, no connection left waiting.',
  },
]);
