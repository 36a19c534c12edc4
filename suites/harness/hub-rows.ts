import type { Locator } from 'playwright-core';
import type { RowStructure } from '../../spec/hub-profile.ts';

/**
 * Rows shown on a hub page (§4.17 fixes no markup for them), read through the accessibility
 * tree in the structure the target's profile states (spec/hub-profile.ts `rows`): a table, an
 * ARIA grid, or a list whose items give their cells by a role or a separator. A row reads as
 * its cell texts joined by `|`.
 *
 * A place that shows no container of the stated structure is a failure with a named reason
 * (RowsNotShown), never a browser time-out's text.
 */
export interface Rows {
  /** The containers of the structure inside the place (the first is read). */
  readonly containers: Locator;
  /**
   * The body rows of the first container; waits for one to appear (a page may build it after
   * its load), and fails with RowsNotShown when none does.
   */
  read(): Promise<string[]>;
  /** Its column heads; undefined for a structure without them (a list). */
  heads(): Promise<string[] | undefined>;
  /** What the structure is, in words. */
  readonly described: string;
}

/** How long a place may take to show its rows' container. */
const APPEAR_MS = 10_000;

export class RowsNotShown extends Error {
  constructor(what: string, described: string) {
    super(`${what} shows no rows the profile's structure finds (${described})`);
    this.name = 'RowsNotShown';
  }
}

const CONTAINER_ROLE = { table: 'table', grid: 'grid', list: 'list' } as const;

function describeStructure(structure: RowStructure): string {
  if (structure.structure === 'table') return 'a table: role table, its rows role row';
  if (structure.structure === 'grid') return 'an ARIA grid: role grid, its rows role row';
  const cells =
    structure.cell !== undefined
      ? `cells of role ${structure.cell.role}`
      : `cells separated by ${JSON.stringify(structure.separator)}`;
  return `a list: role list, one listitem per row, ${cells}`;
}

/**
 * The rows `within` shows in `structure`; `what` names the place in a failure, which comes
 * once no container has appeared for `appearMs`.
 */
export function rowsOf(
  within: Locator,
  structure: RowStructure,
  what: string,
  appearMs = APPEAR_MS,
): Rows {
  const containers = within.getByRole(CONTAINER_ROLE[structure.structure]);
  const described = describeStructure(structure);
  const appeared = async (): Promise<Locator> => {
    const until = Date.now() + appearMs;
    while ((await containers.count()) === 0) {
      if (Date.now() > until) throw new RowsNotShown(what, described);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return containers.first();
  };
  return {
    containers,
    described,
    read: async () => {
      const container = await appeared();
      try {
        return await (structure.structure === 'list'
          ? listRows(container, structure)
          : cellRows(container));
      } catch (error) {
        // The container went while it was read (the page changed under it).
        if (error instanceof Error && error.name === 'TimeoutError')
          throw new RowsNotShown(what, described);
        throw error;
      }
    },
    heads: async () => {
      if (structure.structure === 'list') return undefined;
      const container = await appeared();
      return (await container.getByRole('columnheader').allInnerTexts()).map((h) => h.trim());
    },
  };
}

/** What the readers use of a DOM element, typed here (the project compiles without the DOM lib). */
interface DomNode {
  contains(other: unknown): boolean;
  readonly innerText: string;
}

/** What a reader gathers in the page: rows, cells, and rows to leave out (heads). */
interface Bag {
  rows: DomNode[];
  cells: DomNode[];
  heads: DomNode[];
}

/**
 * Gathers the rows, cells and heads into one object in the page and pairs them there: a few
 * calls whatever the row count (a role query per row made a table of 100 rows cost seconds;
 * a handle per cell cost a call to dispose each). A row holding a head is left out; without
 * cells, a row reads as its own text.
 */
async function gather(
  container: Locator,
  found: { rows: Locator; cells?: Locator; heads?: Locator },
  separator?: string,
): Promise<string[]> {
  const bag = await container.evaluateHandle((): Bag => ({ rows: [], cells: [], heads: [] }));
  try {
    const parts = (['rows', 'cells', 'heads'] as const).flatMap((key) => {
      const locator = found[key];
      return locator === undefined ? [] : [[key, locator] as const];
    });
    await Promise.all(
      parts.map(([key, locator]) =>
        locator.evaluateAll(
          (all: unknown[], [into, k]) => {
            into[k] = all as DomNode[];
          },
          [bag, key] as const,
        ),
      ),
    );
    const byCells = found.cells !== undefined;
    return await bag.evaluate(
      ({ rows, cells, heads }, [cellsFound, sep]) =>
        rows
          .filter((row) => !heads.some((head) => row.contains(head)))
          .map((row) =>
            cellsFound
              ? cells
                  .filter((cell) => row.contains(cell))
                  .map((cell) => cell.innerText.trim())
                  .join('|')
              : row.innerText
                  .trim()
                  .split(sep)
                  .map((cell) => cell.trim())
                  .join('|'),
          ),
      [byCells, separator ?? '|'] as const,
    );
  } finally {
    await bag.dispose();
  }
}

/** A table's or a grid's body rows: by role, whatever elements the page builds them of. */
function cellRows(container: Locator): Promise<string[]> {
  const rows = container.getByRole('row');
  return gather(container, {
    rows,
    cells: rows.getByRole('cell').or(rows.getByRole('gridcell')).or(rows.getByRole('rowheader')),
    heads: container.getByRole('columnheader'),
  });
}

/** A list's items, each by its cells of the stated role or its text cut at the separator. */
function listRows(
  container: Locator,
  list: Extract<RowStructure, { structure: 'list' }>,
): Promise<string[]> {
  const rows = container.getByRole('listitem');
  if (list.cell !== undefined)
    return gather(container, {
      rows,
      cells: rows.getByRole(list.cell.role as Parameters<Locator['getByRole']>[0]),
    });
  return gather(container, { rows }, list.separator);
}
