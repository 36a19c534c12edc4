// The open points (spec/open-points.ts) against the catalogue, the latitude catalogue and the
// document itself.
import { describe, expect, it } from 'vitest';
import { catalogue, documentSections, isClauseId } from './clauses/index.ts';
import { documentText } from './document.ts';
import { LATITUDE, type Freedom } from './latitude.ts';
import { isOpenPointId, OPEN_POINTS, REASONS } from './open-points.ts';

const ENTRIES: readonly Freedom[] = LATITUDE;
const varying = (id: string) =>
  ENTRIES.filter((f) => (f.varies ?? []).some((v) => v === id)).map((f) => f.id);

describe('open points', () => {
  it("the unspecified points are the catalogue's unspecified clauses, in its order", () => {
    const points = OPEN_POINTS.filter((p) => p.kind === 'unspecified');
    const clauses = catalogue.filter((c) => c.level === 'unspecified');
    expect(points.map((p) => p.id)).toEqual(clauses.map((c) => c.id));
    expect(points.map((p) => [p.section, p.summary])).toEqual(
      clauses.map((c) => [c.section, c.summary]),
    );
  });

  it('ids are unique, and only an unspecified point takes the id of a clause', () => {
    const ids = OPEN_POINTS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const borrowed = OPEN_POINTS.filter((p) => p.kind !== 'unspecified' && isClauseId(p.id));
    expect(borrowed.map((p) => p.id)).toEqual([]);
  });

  it('every point cites at least one clause, every clause it cites exists, its section is one of the document', () => {
    const sections: readonly string[] = documentSections;
    for (const point of OPEN_POINTS) {
      expect(point.clauses.length, point.id).toBeGreaterThan(0);
      expect(
        point.clauses.filter((c) => !isClauseId(c)),
        point.id,
      ).toEqual([]);
      expect(sections, point.id).toContain(point.section);
      expect(point.summary.trim(), point.id).not.toBe('');
    }
  });

  it("every latitude entry's varies names one or more open points, each once", () => {
    for (const entry of ENTRIES) {
      const varies: readonly string[] = entry.varies ?? [];
      expect(varies.length, `${entry.id} names no open point it varies`).toBeGreaterThan(0);
      expect(
        varies.filter((id) => !isOpenPointId(id)),
        entry.id,
      ).toEqual([]);
      expect(new Set(varies).size, entry.id).toBe(varies.length);
    }
  });

  it('a reason names an open point that no entry varies', () => {
    for (const [id, reason] of Object.entries(REASONS)) {
      expect(isOpenPointId(id), id).toBe(true);
      expect(reason?.trim(), id).not.toBe('');
      expect(varying(id), `${id} has a reason and is varied`).toEqual([]);
    }
  });
});

/** The section each "not shown" statement of the document sits in, in document order. */
function notShownSections(text: string): string[] {
  const out: string[] = [];
  let section = '1';
  for (const line of text.split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading !== null) section = heading[1] ?? section;
    const count = line.match(/not shown/g)?.length ?? 0;
    for (let i = 0; i < count; i++) out.push(section);
  }
  return out;
}

describe.skipIf(documentText === undefined)('against the document', () => {
  it('lists each "not shown" statement of the document, 16 in all, in its section', () => {
    const text = documentText ?? '';
    const inDocument = notShownSections(text);
    expect(inDocument).toHaveLength(16);
    const listed = OPEN_POINTS.filter((p) => p.kind === 'not-shown').map((p) => p.section);
    expect(listed).toEqual(inDocument);
  });
});
