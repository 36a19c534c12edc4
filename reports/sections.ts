/**
 * Short titles of the document's numbered sections, for report headings. Our own labels,
 * keyed by the catalogue's `documentSections` so that a new section cannot go untitled.
 */
import { documentSections, type DocumentSection } from '../spec/clauses/index.ts';
import type { SectionTitle } from './coverage.ts';

const TITLES: Record<DocumentSection, string> = {
  '1': 'Overview',
  '2': 'Resources',
  '2.1': 'Project user role',
  '2.2': 'Role permissions',
  '2.3': 'Project organization',
  '2.4': 'Project user',
  '2.5': 'Token',
  '2.6': 'Chart configuration',
  '2.7': 'Chat result',
  '2.8': 'Workspaces, applications, dashboards',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'Update a role',
  '4.2': 'List roles',
  '4.3': 'Delete a role',
  '4.4': 'Register an organization',
  '4.5': 'Register a user',
  '4.6': 'Update a user',
  '4.7': 'Project-user token',
  '4.8': 'Embed token',
  '4.9': 'Register a tenant (v1)',
  '4.10': 'Clone a dashboard (v1)',
  '4.11': 'Append charts (v1)',
  '4.12': 'Remove charts (v1)',
  '4.13': 'List workspaces (v1)',
  '4.14': 'Save a chart from chat',
  '4.15': 'Agent chat stream',
  '4.16': 'v2 endpoints and migration',
  '4.17': 'Embedded pages',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

export const sectionTitles: readonly SectionTitle[] = documentSections.map((section) => ({
  section,
  title: TITLES[section],
}));
