import { defineClauses } from './types.ts';

// §4.17: pages the hub serves for embedding.
export const s4Hub = defineClauses([
  {
    id: 'hub.application.page',
    section: '4.17',
    level: 'must',
    summary: '/share/application/{applicationId} embeds a whole application, navigation included.',
  },
  {
    id: 'hub.application.dashboard-id',
    section: '4.17',
    level: 'must',
    summary:
      'With ?dashboardId the application page shows only that dashboard, no sidebar, no tabs.',
  },
  {
    id: 'hub.dashboard.page',
    section: '4.17',
    level: 'must',
    summary:
      '/share/dashboard/{dashboardId} finds the application of the dashboard and opens it there.',
  },
  {
    id: 'hub.dashboard.jwt-required',
    section: '4.17',
    level: 'must',
    summary: 'The dashboard page cannot be opened without a jwt.',
  },
  {
    id: 'hub.query.jwt',
    section: '4.17',
    level: 'must',
    summary: 'The jwt query parameter carries a project-user token.',
  },
  {
    id: 'hub.query.hide-header',
    section: '4.17',
    level: 'must',
    summary: 'hideHeader=true hides the page header.',
  },
  {
    id: 'hub.query.hide-download-button',
    section: '4.17',
    level: 'must',
    summary: 'hideDownloadButton=true hides the download control.',
  },
  {
    id: 'hub.query.filter-control',
    section: '4.17',
    level: 'must',
    summary: 'filter_{controlKey} with a JSON value sets a controlled filter.',
  },
  {
    id: 'hub.query.db-auth-token',
    section: '4.17',
    level: 'must',
    summary: 'The pages accept a dbAuthToken query parameter.',
  },
  {
    id: 'hub.query.auto-height',
    section: '4.17',
    level: 'must',
    summary:
      'autoHeight=true plus parentOrigin makes the page report its content height to the parent.',
  },
  {
    id: 'hub.events.embed-params',
    section: '4.17',
    level: 'must',
    summary: "Filter changes reach the parent window as an 'embed:params' postMessage.",
  },
  {
    id: 'hub.ids.v1-and-v2',
    section: '4.17',
    level: 'must',
    summary: 'Embedded pages take v1 and v2 dashboard ids alike.',
  },
  {
    id: 'hub.errors.not-found-text',
    section: '4.17',
    level: 'must',
    summary: "A dashboard the token may not see renders the text 'Dashboard not found.'.",
  },
  {
    id: 'hub.errors.invalid-token-text',
    section: '4.17',
    level: 'must',
    summary: "A missing or bad jwt renders the text 'Invalid or missing token.'.",
  },
  {
    id: 'hub.theme.not-by-parameter',
    section: '4.17',
    level: 'must',
    summary: 'The theme comes from hub settings; no query parameter changes it.',
  },
  {
    id: 'hub.errors.status',
    section: '4.17',
    level: 'unspecified',
    summary: 'The HTTP status of the hub error pages is left open.',
    decision:
      'The error texts are served as HTML with 404 (dashboard not found) and 401 (token missing or invalid).',
  },
]);
