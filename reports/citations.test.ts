import { describe, expect, it } from 'vitest';
import { clauseById } from '../spec/clauses/index.ts';
import { closingSummary } from '../runner/run.ts';
import { sectionUrl } from './document-link.ts';
import { renderHtml } from './html.ts';
import { sampleResults } from './sample-results.ts';
import { renderSummary } from './summary-md.ts';

const run = sampleResults();
const failed = run.results.find((r) => r.outcome === 'fail');
const cited = clauseById.get(failed?.clauses[0] ?? '');
if (failed === undefined || cited === undefined) throw new Error('the sample has a failure');

describe('a citation shows the clause’s own text', () => {
  it('in summary.md, beside the id and its section', () => {
    const md = renderSummary(run, {});
    expect(md).toContain(`\`${cited.id}\` §${cited.section}: ${cited.summary.slice(0, 40)}`);
  });

  it('in index.html, beside the id and its section', () => {
    const html = renderHtml(run);
    expect(html).toMatch(
      new RegExp(`<code>${cited.id.replace(/\./g, '\\.')}</code> <span class="ctext">`),
    );
  });

  it('in the failures of the closing lines', () => {
    expect(closingSummary(run, '/r/x', undefined)).toContain(
      `      §${cited.section} ${cited.id}: ${cited.summary.slice(0, 40)}`,
    );
  });
});

describe('EAC_DOCUMENT_URL links the sections to the document', () => {
  it('appends #section-N to a plain URL, or fills {section}', () => {
    expect(sectionUrl('https://d.test/api.html', '4.6')).toBe(
      'https://d.test/api.html#section-4.6',
    );
    expect(sectionUrl('https://d.test/api.html#s-{section}', '4.6')).toBe(
      'https://d.test/api.html#s-4.6',
    );
    expect(sectionUrl(undefined, '4.6')).toBeUndefined();
  });

  it('in summary.md', () => {
    const md = renderSummary(run, { EAC_DOCUMENT_URL: 'https://d.test/api.html' });
    expect(md).toContain(
      `\`${cited.id}\` [§${cited.section}](https://d.test/api.html#section-${cited.section}): `,
    );
    expect(renderSummary(run, {})).not.toContain('https://d.test');
  });

  it('in index.html, a plain URL too', () => {
    const html = renderHtml(run, { documentUrl: 'https://d.test/api.html' });
    expect(html).toContain(
      `<a class="sec" href="https://d.test/api.html#section-${cited.section}">§${cited.section}</a> <code>${cited.id}</code>`,
    );
  });
});
