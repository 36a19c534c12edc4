import { defineClauses } from './types.ts';

/**
 * Level `security`: row-level security (§1, §2.4) as no trustworthy server may break it,
 * though the document states only that properties restrict the rows a user sees.
 */
export const securityData = defineClauses([
  {
    id: 'security.data.rows-of-the-user',
    section: '1',
    level: 'security',
    summary:
      'Chat answers and saved charts hold only rows the asking user may see: no value that only rows hidden from that user hold.',
  },
  {
    id: 'security.data.other-organization',
    section: '1',
    level: 'security',
    summary:
      "A user never receives another organization's data, whether another project organization of the account or another account.",
  },
  {
    id: 'security.data.properties-are-values',
    section: '2.4',
    level: 'security',
    summary:
      'A property value is data, never SQL or a template: quotes, statements, {{user.<key>}} text or great length in it change no query and open no rows.',
  },
  {
    id: 'security.data.missing-property-not-unfiltered',
    section: '2.4',
    level: 'security',
    summary:
      'A user lacking a property a row filter reads never gets the rows unfiltered: the answer is refused or holds none of them.',
  },
]);
