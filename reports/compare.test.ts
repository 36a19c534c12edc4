import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../runner/cli.ts';
import type { Results } from './schema.ts';
import {
  compareRows,
  compareRuns,
  renderCompareHtml,
  renderCompareMarkdown,
  runLabel,
  type ComparedRun,
} from './compare.ts';
import { HOSTILE, sampleResults } from './sample-results.ts';

function withAnswers(
  base: Results,
  clause: string,
  answers: Results['register'][number]['answers'],
  changes: Partial<Results> = {},
): Results {
  return {
    ...base,
    ...changes,
    register: base.register.map((e) =>
      e.clause === clause ? { ...e, tests: answers.length > 0 ? 1 : 0, answers } : e,
    ),
  };
}

const base = sampleResults();
const probed = base.register.find((e) => e.answers.length > 0);
if (!probed) throw new Error('the sample probes a clause');
const other = base.register.find((e) => e.answers.length === 0)?.clause ?? '';
const reference: ComparedRun = {
  source: 'runs/a',
  run: withAnswers(base, other, [
    { answer: '400 VALIDATION_ERROR', matchesDecision: true, seenOn: [{ test: 't/1' }] },
  ]),
};
const candidate: ComparedRun = {
  source: 'runs/b/results.json',
  run: withAnswers(
    base,
    other,
    [
      {
        answer: `422 ${HOSTILE}`,
        matchesDecision: false,
        seenOn: [{ test: 't/1', endpoint: 'POST /v1/x' }],
      },
    ],
    {
      seed: 9,
      target: { ...base.target, implementation: 'acme-server', embedded: false },
      profile: { source: '/p/acme.yaml', description: 'Acme 2.1', serves: ['identity'] },
    },
  ),
};

describe('eac compare', () => {
  it('labels each column shortly, by target implementation and seed, and describes the runs below', () => {
    expect(runLabel(reference)).toBe('eac-reference · seed 1');
    expect(runLabel(candidate)).toBe('acme-server · seed 9');
    const long = 'x'.repeat(140);
    const described = {
      ...candidate,
      run: { ...candidate.run, profile: { ...candidate.run.profile, description: long } },
    };
    for (const page of [
      renderCompareMarkdown([reference, described]),
      renderCompareHtml([reference, described]),
    ]) {
      const heads = page.slice(0, page.indexOf('The runs'));
      expect(heads).toContain('2: acme-server · seed 9');
      expect(heads).not.toContain(long);
      expect(page.slice(page.indexOf('The runs'))).toContain(long);
    }
  });

  it('has one row per unspecified clause, flagging those where answers differ', () => {
    const rows = compareRows([reference, candidate]);
    expect(rows).toHaveLength(base.register.length);
    const diverging = rows.filter((r) => r.diverges).map((r) => r.clause);
    expect(diverging).toEqual([other]);
    // Same answer in both runs: no divergence.
    expect(rows.find((r) => r.clause === probed.clause)?.diverges).toBe(false);
  });

  it('does not flag answers that differ only in text when both follow the decision', () => {
    const at = (answer: string): ComparedRun => ({
      source: answer,
      run: withAnswers(base, other, [{ answer, matchesDecision: true, seenOn: [{ test: 't' }] }]),
    });
    const row = compareRows([
      at('created 2025-01-01T00:00:00.000Z'),
      at('created 2026-02-02T01:01:01.000Z'),
    ]);
    expect(row.find((r) => r.clause === other)?.diverges).toBe(false);
  });

  it('renders Markdown cells with the distinct answers and whether they match the decision', () => {
    const md = renderCompareMarkdown([reference, candidate]);
    const row = md.split('\n').find((l) => l.includes(`\`${other}\``));
    expect(row).toMatch(/^\| ⚠ /);
    expect(row).toContain('✓ 400 VALIDATION_ERROR');
    expect(row).toContain('✗ 422');
    expect(row).not.toContain('<script>');
    expect(md).toContain('| 2 | acme-server `http://127.0.0.1:4000` | Acme 2.1 | identity | 9 |');
    const unprobed = md.split('\n').find((l) => l.includes('no probe'));
    expect(unprobed).toBeDefined();
  });

  it('renders the same table as HTML, escaped', () => {
    const html = renderCompareHtml([reference, candidate]);
    expect(html).toContain('<tr class="diverges">');
    expect(html).toContain('&lt;script&gt;');
    // The page's own script is the "differs only" toggle; nothing of an answer runs.
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('<code>POST /v1/x</code>');
  });

  const dir = mkdtemp(path.join(tmpdir(), 'eac-compare-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it('reads run folders and results.json files, and writes compare.md and compare.html', async () => {
    const root = await dir;
    const folder = path.join(root, 'run-a');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(folder);
    await writeFile(path.join(folder, 'results.json'), JSON.stringify(reference.run));
    const file = path.join(root, 'b.json');
    await writeFile(file, JSON.stringify(candidate.run));
    const out = await compareRuns([folder, file], root);
    expect(out.files).toEqual([path.join(root, 'compare.md'), path.join(root, 'compare.html')]);
    expect(await readFile(path.join(root, 'compare.md'), 'utf8')).toBe(out.markdown);
    expect(out.markdown).toContain('2: acme-server · seed 9');
  });

  it('makes the --out folder when it does not exist yet', async () => {
    const root = await dir;
    const file = path.join(root, 'c.json');
    await writeFile(file, JSON.stringify(candidate.run));
    const out = await compareRuns([file], path.join(root, 'new', 'folder'));
    expect(await readFile(out.files[1] as string, 'utf8')).toContain('<html');
  });

  it('refuses a results.json of an older schema with a plain message', async () => {
    const root = await dir;
    const { schemaVersion: _dropped, ...old } = reference.run;
    void _dropped;
    const file = path.join(root, 'old.json');
    await writeFile(file, JSON.stringify(old));
    await expect(compareRuns([file], root)).rejects.toThrow(
      /schema version 1 .*run the suites again/,
    );
  });

  it('compare.html has a "differs only" view that keeps the rows where the runs differ', () => {
    const html = renderCompareHtml([reference, candidate]);
    expect(html).toMatch(
      /<label><input type="checkbox" id="differs-only"> differs only \(1 row\)<\/label>/,
    );
    expect(html).toContain('body.differs-only tbody tr:not(.diverges){display:none}');
    expect(html).toMatch(/<script>[^]*differs-only[^]*<\/script>/);
  });

  it('eac compare prints a short summary and the files it wrote, not the table', async () => {
    const root = await dir;
    const a = path.join(root, 'p.json');
    const b = path.join(root, 'q.json');
    await writeFile(a, JSON.stringify(reference.run));
    await writeFile(b, JSON.stringify(candidate.run));
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      expect(await main(['compare', a, b, '--out', path.join(root, 'cmp')])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const text = printed.join('');
    expect(text).toMatch(
      /^eac compare: 2 runs, \d+ unspecified clauses, \d+ probed in at least one run, 1 where the runs differ on following the decision\n/,
    );
    expect(text).toContain(`  ${path.join(root, 'cmp', 'compare.md')}\n`);
    expect(text).toContain(
      `  ${path.join(root, 'cmp', 'compare.html')} (open it; "differs only" shows the 1 row)`,
    );
    expect(text).not.toContain('| Clause |');
    expect(text.length).toBeLessThan(2000);
  });
});
