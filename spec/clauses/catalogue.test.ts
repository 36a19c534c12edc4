import { describe, expect, it } from 'vitest';
import { documentText as maybeDocument } from '../document.ts';
import { catalogue, clauseById, documentSections, isClauseId, sectionOf } from './index.ts';
import type { ClauseId } from './index.ts';
import type { Clause } from './types.ts';

/** A clause's reason why no portable check exists, read through the wide type. */
const reasonOf = (c: Clause): string | undefined => c.noPortableCheck;

// Without the document beside the checkout, the checks against it are skipped (see below).
const haveDocument = maybeDocument !== undefined;
const documentText = maybeDocument ?? '';

// Headings look like `## 4. Endpoints` and `### 4.10 Clone dashboard (v1)`.
function parseSections(text: string): string[] {
  const sections: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^#{2,}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (match?.[1] !== undefined) sections.push(match[1]);
  }
  return sections;
}

// Case and punctuation are ignored; a URL path such as `/v1/api/projects/{projectId}` counts as
// one word, since naming an endpoint exactly is citing it, not copying prose.
function words(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.toLowerCase().split(/\s+/)) {
    const bare = chunk.replace(/^[^a-z0-9/{]+|[^a-z0-9}]+$/g, '');
    if (bare.startsWith('/')) out.push(bare);
    else out.push(...bare.split(/[^a-z0-9]+/).filter((w) => w.length > 0));
  }
  return out;
}

const COPY_RUN = 8;

function runs(tokens: readonly string[], size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + size <= tokens.length; i++) out.push(tokens.slice(i, i + size).join(' '));
  return out;
}

const documentRuns = new Set(runs(words(documentText), COPY_RUN));
const ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*){1,4}$/;
const AREAS = new Set([
  'resources',
  'permissions',
  'roles',
  'orgs',
  'users',
  'tokens',
  'tenants',
  'states',
  'dashboards',
  'workspaces',
  'charts',
  'chat',
  'events',
  'hub',
  'auth',
  'errors',
  'limits',
  'migration',
  'versioning',
  'v2',
  'security',
]);

// Compile-time: the ids stay a union of literals, not widened to string.
type IsWide<T> = string extends T ? true : false;
const idsAreLiteral: IsWide<ClauseId> = false;

describe('clause catalogue', () => {
  it('keeps literal ids in the ClauseId type', () => {
    expect(idsAreLiteral).toBe(false);
  });

  it('has at least 150 clauses', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(150);
  });

  it('has unique ids', () => {
    const seen = new Set<string>();
    const duplicates = catalogue
      .map((c) => c.id)
      .filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(duplicates, 'every id appears once').toEqual([]);
    expect(clauseById.size).toBe(catalogue.length);
  });

  it('uses well-formed ids in a known area', () => {
    const bad = catalogue.map((c) => c.id).filter((id) => !ID_PATTERN.test(id));
    expect(bad, 'ids follow area.topic.detail').toEqual([]);
    const unknownArea = catalogue
      .map((c) => c.id)
      .filter((id) => !AREAS.has(id.split('.')[0] ?? ''));
    expect(unknownArea, 'ids start with a known area').toEqual([]);
  });

  it.skipIf(!haveDocument)('lists exactly the numbered headings of the document', () => {
    expect([...documentSections]).toEqual(parseSections(documentText));
  });

  it('cites only sections that exist, in document order', () => {
    const order = new Map<string, number>(documentSections.map((s, i) => [s, i]));
    const unknown = catalogue
      .filter((c) => !order.has(c.section))
      .map((c) => `${c.id}: ${c.section}`);
    expect(unknown, 'every section is a heading of the document').toEqual([]);
    // Security clauses are ours, kept in files of their own after the document's.
    const own = catalogue.filter((c) => c.level !== 'security');
    const outOfOrder = own
      .slice(1)
      .filter((c, i) => (order.get(c.section) ?? 0) < (order.get(own[i]?.section ?? '') ?? 0))
      .map((c) => c.id);
    expect(outOfOrder, 'the catalogue follows the document').toEqual([]);
  });

  it('covers every section from 2 to 9', () => {
    const cited = new Set<string | undefined>(catalogue.map((c) => c.section.split('.')[0]));
    for (const top of ['2', '3', '4', '5', '6', '7', '8', '9'])
      expect(cited.has(top), `§${top} has clauses`).toBe(true);
    const subsections = documentSections.filter((s) => s.includes('.'));
    const citedSections = new Set<string>(catalogue.map((c) => c.section));
    expect(
      subsections.filter((s) => !citedSections.has(s)),
      'every subsection has clauses',
    ).toEqual([]);
  });

  it('gives a decision to exactly the unspecified clauses', () => {
    const missing = catalogue
      .filter((c) => c.level === 'unspecified' && !(c.decision ?? '').trim())
      .map((c) => c.id);
    expect(missing, 'unspecified clauses record the decision').toEqual([]);
    const stray = catalogue
      .filter((c) => c.level !== 'unspecified' && 'decision' in c)
      .map((c) => c.id);
    expect(stray, 'only unspecified clauses carry a decision').toEqual([]);
  });

  it('gives a reason why no portable check exists only to must and observed clauses', () => {
    const stray = catalogue
      .filter((c) => reasonOf(c) !== undefined && c.level !== 'must' && c.level !== 'observed')
      .map((c) => c.id);
    expect(stray, "only the document's firm clauses are judged portably or not").toEqual([]);
    const empty = catalogue.filter((c) => reasonOf(c)?.trim() === '').map((c) => c.id);
    expect(empty, 'a reason is written out').toEqual([]);
  });

  it('has short, non-empty summaries', () => {
    const bad = catalogue
      .filter((c) => c.summary.trim().length === 0 || c.summary.length >= 160)
      .map((c) => c.id);
    expect(bad, 'summaries are one short line').toEqual([]);
  });

  it.skipIf(!haveDocument)('never copies the document word for word', () => {
    const copied: string[] = [];
    for (const c of catalogue) {
      const texts = [
        c.summary,
        ...('decision' in c && c.decision !== undefined ? [c.decision] : []),
        ...(reasonOf(c) !== undefined ? [reasonOf(c) ?? ''] : []),
      ];
      for (const text of texts) {
        for (const run of runs(words(text), COPY_RUN))
          if (documentRuns.has(run)) copied.push(`${c.id}: "${run}"`);
      }
    }
    expect(copied, `no run of ${COPY_RUN} words is taken from the document`).toEqual([]);
  });

  it.skipIf(!haveDocument)('would notice a sentence lifted from the document', () => {
    const sample = documentText.split('\n').find((line) => words(line).length > 12) ?? '';
    expect(runs(words(sample), COPY_RUN).some((run) => documentRuns.has(run))).toBe(true);
    expect(
      runs(words('a sentence of ours that the document does not hold anywhere'), COPY_RUN).some(
        (run) => documentRuns.has(run),
      ),
    ).toBe(false);
  });

  it('contains the ids the suites rely on', () => {
    const required = [
      'roles.update.path',
      'roles.update.replaces-permissions',
      'roles.update.renames',
      'roles.update.response-fields',
      'roles.update.permissions-only-known-flags',
      'roles.list.path',
      'roles.list.response-shape',
      'roles.list.id-usable-as-user-role',
      'roles.delete.path',
      'roles.delete.response-message',
      'roles.delete.users-lose-role',
      'roles.create.hook',
      'roles.timestamps.format',
      'roles.list.order',
      'roles.delete.twice',
      'resources.role.fields',
      'states.role.update-replaces',
      'states.user.role-deleted',
      'permissions.editing.grant-flags',
      'permissions.editing.read-only-overrides',
      'permissions.editing.empty-is-view-only',
      'permissions.editing.no-role-view-only',
      'permissions.create-chart-sql.needs-create-chart',
      'permissions.drill-down.off-when-read-only',
      'tokens.expiration.enum',
      'tokens.expiration.default-1h',
      'tokens.expires-at.iso-utc',
      'tokens.expires-at.issue-plus-duration',
      'tokens.jwt.exp-matches-expires-at',
      'tokens.validity.exp-exclusive',
      'tokens.claims',
      'tokens.user-token.unknown-user',
      'errors.envelope.shape',
      'errors.validation.status',
      'errors.unauthorized.status',
      'errors.forbidden.status',
      'errors.not-found.status',
      'errors.route-not-found',
      'errors.malformed-json',
      'errors.unsupported-media-type',
      'errors.payload-too-large',
      'errors.rejected-request-changes-nothing',
      'auth.api-key.body-for-post-put',
      'auth.api-key.query-for-get-delete',
      'auth.api-key.misplaced',
      'auth.user-scoped.organization-id-required',
      'auth.user-scoped.membership-verified',
      'auth.org-bound.organization-id-ignored',
      'auth.organization-id.not-external-id',
      'auth.isolation.other-account',
      'limits.name.min-length',
      'limits.chart-ids.min-items',
      'limits.chat.rate',
    ] as const satisfies readonly ClauseId[];
    expect(required.filter((id) => !isClauseId(id))).toEqual([]);
    const unspecified = [
      'roles.create.hook',
      'roles.timestamps.format',
      'roles.list.order',
      'roles.delete.twice',
      'tokens.jwt.exp-matches-expires-at',
      'tokens.validity.exp-exclusive',
      'tokens.claims',
      'tokens.user-token.unknown-user',
      'errors.validation.status',
      'auth.api-key.misplaced',
      'auth.isolation.other-account',
    ] as const satisfies readonly ClauseId[];
    expect(unspecified.filter((id) => clauseById.get(id)?.level !== 'unspecified')).toEqual([]);
  });

  it('has a default clause for each of the twenty permission flags', () => {
    const defaults = catalogue.filter((c) => c.id.startsWith('permissions.default.'));
    expect(defaults).toHaveLength(20);
  });

  it('finds the section of a clause', () => {
    expect(sectionOf('roles.update.path')).toBe('4.1');
    expect(sectionOf('permissions.default.add-chart')).toBe('2.2');
  });
});
