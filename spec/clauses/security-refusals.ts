import { defineClauses } from './types.ts';

/**
 * Level `security`: what no trustworthy server may do although the document does not spell
 * it out. These protect the promise of §5 that a credential acts for its own account only:
 * a refusal is worth nothing if the request it refused still wrote, or if its answer shows
 * what the caller could not read.
 */
export const securityRefusals = defineClauses([
  {
    id: 'auth.credentials.required',
    section: '5',
    level: 'security',
    summary:
      'An identity endpoint acts only on a credential the service issued: a request with none, or with an unknown key, is refused.',
  },
  {
    id: 'auth.refused.changes-nothing',
    section: '5',
    level: 'security',
    summary:
      'A request refused for its credentials (missing, unknown, misplaced, no organizationId, not a member) leaves every account as it was.',
  },
  {
    id: 'auth.isolation.other-account-refused',
    section: '5',
    level: 'security',
    summary:
      "One account's credentials never act on another account's project, role, user or project organization: such a request is refused.",
  },
  {
    id: 'auth.isolation.refused-changes-nothing',
    section: '5',
    level: 'security',
    summary:
      "A request refused because it named another account's resources leaves that account, and the caller's own, as they were.",
  },
  {
    id: 'auth.isolation.no-foreign-data',
    section: '5',
    level: 'security',
    summary:
      "No answer to one account's credentials holds data of another account that the request did not name (names, ids, properties).",
  },
  {
    id: 'auth.isolation.sibling-project-refused',
    section: '5',
    level: 'security',
    summary:
      "A request naming one project never reaches a sibling project's role, user or organization: refused, and nothing changes.",
  },
]);
