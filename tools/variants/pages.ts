import type { Variant } from './variant.ts';

/**
 * Issue 34, the inventory "every page × every error path" (§4.17's two texts, §5 rule 6): on
 * one page only, one way a page is refused shows the other text. The pages are the dashboard
 * page, the application page, and the application page with dashboardId; each variant tells
 * them apart by the request and the path by what the jwt or the ids are, so it breaks that one
 * cell and leaves every other page and path as the reference answers them.
 */

export const PAGES = ['dashboard', 'application', 'application+dashboardId'] as const;
export type PageKind = (typeof PAGES)[number];

/** The ways a jwt is refused: each must show 'Invalid or missing token.'. */
export const TOKEN_PATHS = [
  'no jwt',
  'an empty jwt',
  'a jwt that is no token',
  'a forged signature',
  'an expired jwt',
  'a tenant JWT',
] as const;
export type TokenPath = (typeof TOKEN_PATHS)[number];

/** The ids a good token may not see: each must show 'Dashboard not found.'. */
export const ID_PATHS = [
  'an unknown id',
  "another account's id",
  "another application's dashboard",
  "another user's own dashboard",
] as const;
export type IdPath = (typeof ID_PATHS)[number];

/** The cells of the table the document asks for: an id path only where the page has it. */
export const ID_CELLS: readonly (readonly [PageKind, IdPath])[] = [
  ['dashboard', 'an unknown id'],
  ['dashboard', "another account's id"],
  ['dashboard', "another user's own dashboard"],
  ['application', 'an unknown id'],
  ['application', "another account's id"],
  ['application+dashboardId', 'an unknown id'],
  ['application+dashboardId', "another account's id"],
  ['application+dashboardId', "another application's dashboard"],
  ['application+dashboardId', "another user's own dashboard"],
];

const FROM =
  'const page = viewer === undefined ? invalidToken : await open(viewer, req.params.id, query);';

/** Which page the request is, computed beside the reference's own lines. */
const PAGE_OF = `const pageOf = req.url.startsWith('/share/dashboard/') ? 'dashboard' : query.dashboardId !== undefined ? 'application+dashboardId' : 'application';`;

/** Why a jwt was refused, read from its payload (no check: the reference has refused it). */
const TOKEN_WHY = `const claimed = ((): Record<string, unknown> | undefined => { try { return JSON.parse(Buffer.from((query.jwt ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>; } catch { return undefined; } })();
      const holder = typeof claimed?.['org'] === 'string' ? ctx.store.account(claimed['org']) : undefined;
      const why = query.jwt === undefined ? 'no jwt' : query.jwt === '' ? 'an empty jwt' : claimed === undefined ? 'a jwt that is no token' : claimed['kind'] === 'tenant' ? 'a tenant JWT' : holder !== undefined && typeof claimed['exp'] === 'number' && claimed['exp'] * 1000 <= ctx.store.now(holder) ? 'an expired jwt' : 'a forged signature';`;

/** A refused jwt on one page, one way, shows 'Dashboard not found.' (404). */
function tokenVariant(page: PageKind, path: TokenPath): Variant {
  return {
    name: `pages: ${path} on the ${page} page shows 'Dashboard not found.'`,
    file: 'reference/hub/server.ts',
    within: 'serve',
    from: FROM,
    to: `${PAGE_OF}
      ${TOKEN_WHY}
      const page = viewer === undefined ? (pageOf === ${JSON.stringify(page)} && why === ${JSON.stringify(path)} ? { kind: 'error' as const, status: 404 as const, text: 'Dashboard not found.' } : invalidToken) : await open(viewer, req.params.id, query);`,
    only: ['hub.errors.invalid-token-text'],
  };
}

/** Why a good token's page was not found: whose the id is (the store read past its types). */
const ID_WHY = `const accounts = [...(ctx.store as unknown as { accounts: Map<string, { dashboards: { dashboards: Record<string, { ownerProjectUserId: string | null; workspaceId: string } | undefined>; workspaces: Record<string, unknown> } }> }).accounts.values()];
      const pathId = req.params.id.toLowerCase();
      const boardId = pageOf === 'dashboard' ? pathId : query.dashboardId;
      const mine = viewer?.account.dashboards;
      const board = boardId === undefined ? undefined : mine?.dashboards[boardId];
      const foreign = accounts.some((a) => a !== viewer?.account && (a.dashboards.dashboards[pathId] !== undefined || a.dashboards.workspaces[pathId] !== undefined || (boardId !== undefined && a.dashboards.dashboards[boardId] !== undefined)));
      const why = foreign ? "another account's id" : board !== undefined && board.ownerProjectUserId !== null && board.ownerProjectUserId !== viewer?.userId ? "another user's own dashboard" : board !== undefined && pageOf !== 'dashboard' && board.workspaceId !== pathId ? "another application's dashboard" : 'an unknown id';`;

/** An id a good token may not see, on one page, one way, shows 'Invalid or missing token.' (401). */
function idVariant(page: PageKind, path: IdPath): Variant {
  return {
    name: `pages: ${path} on the ${page} page shows 'Invalid or missing token.'`,
    file: 'reference/hub/server.ts',
    within: 'serve',
    from: FROM,
    to: `${PAGE_OF}
      const opened = viewer === undefined ? invalidToken : await open(viewer, req.params.id, query);
      ${ID_WHY}
      const page = opened.kind === 'error' && opened.status === 404 && pageOf === ${JSON.stringify(page)} && why === ${JSON.stringify(path)} ? invalidToken : opened;`,
    only: ['hub.errors.not-found-text'],
  };
}

export const tokenVariantName = (page: PageKind, path: TokenPath) => tokenVariant(page, path).name;
export const idVariantName = (page: PageKind, path: IdPath) => idVariant(page, path).name;

export const pagesVariants: readonly Variant[] = [
  ...PAGES.flatMap((page) => TOKEN_PATHS.map((path) => tokenVariant(page, path))),
  ...ID_CELLS.map(([page, path]) => idVariant(page, path)),
];
