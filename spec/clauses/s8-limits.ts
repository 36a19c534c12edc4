import { defineClauses } from './types.ts';

// §8: limits the document states, and the reference's choices for the ones it leaves open.
export const s8 = defineClauses([
  {
    id: 'limits.chat.rate',
    section: '8',
    level: 'must',
    summary: 'Agent chat allows 180 requests a minute for each pair of organization and user.',
  },
  {
    id: 'limits.chat.rate-exceeded',
    section: '8',
    level: 'unspecified',
    summary: 'What a chat request over the rate limit gets is left open.',
    decision:
      '429 RATE_LIMITED with a Retry-After header in seconds; the window is 60 s per (customer organization, project user).',
  },
  {
    id: 'limits.chat.window-kind',
    section: '8',
    level: 'unspecified',
    summary: 'Whether the per-minute chat window is fixed or sliding is left open.',
    decision:
      "Fixed: the count starts again at each whole minute of the account's clock; a request over the limit is not counted.",
  },
  {
    id: 'limits.expiration.values',
    section: '8',
    level: 'must',
    summary: 'user-token and embed-token refuse any expiration outside the nine listed durations.',
  },
  {
    id: 'limits.name.min-length',
    section: '8',
    level: 'must',
    summary: 'Role update, user update and register-organization refuse an empty name.',
  },
  {
    id: 'limits.chart-ids.min-items',
    section: '8',
    level: 'must',
    summary: 'remove-charts refuses an empty chartIds array.',
  },
  {
    id: 'limits.other-rates',
    section: '8',
    level: 'unspecified',
    summary: 'Rate limits on endpoints other than agent chat are left open.',
    decision: 'None: only agent chat is rate limited.',
  },
  {
    id: 'limits.body-size',
    section: '8',
    level: 'unspecified',
    summary: 'A maximum request size is left open.',
    decision: 'Request bodies are capped at 1 MiB (413 PAYLOAD_TOO_LARGE beyond).',
  },
  {
    id: 'limits.body-depth',
    section: '8',
    level: 'unspecified',
    summary: 'How deeply a JSON body may nest objects and arrays is left open.',
    decision:
      'At most 64 levels, the body itself being level 1; a deeper body gets 400 BODY_TOO_DEEP with details.maxDepth before anything is read, so nothing changes.',
  },
  {
    id: 'limits.header-size',
    section: '8',
    level: 'unspecified',
    summary: 'A maximum size for the request line and headers is left open.',
    decision:
      '16 KiB for the request line and headers together (a long query string counts); beyond, 431 HEADERS_TOO_LARGE in the §7 envelope with details.limit, Connection: close, and the connection closes.',
  },
  {
    id: 'limits.request-timeout',
    section: '8',
    level: 'unspecified',
    summary: 'How long a client may take to send a request is left open.',
    decision:
      'The request line and headers must all arrive within 60 s (checked every 30 s); otherwise 408 REQUEST_TIMEOUT in the §7 envelope and the connection closes.',
  },
  {
    id: 'limits.pagination',
    section: '8',
    level: 'unspecified',
    summary: 'Paging of list answers is left open.',
    decision: 'No pagination: list endpoints answer every item in one response.',
  },
]);
