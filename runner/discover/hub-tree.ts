/**
 * Discover's reading of a hub page's accessibility tree: Playwright's ARIA snapshot (the tree
 * its role locators match against, so a role and name read here is one `getByRole` finds)
 * parsed into nodes, and what differs between two pages of one dashboard. No I/O.
 */
import { parse } from 'yaml';

/** One node of the tree: an ARIA role, its accessible name (empty when none), its children. */
export interface AxNode {
  readonly role: string;
  readonly name: string;
  readonly children: readonly AxNode[];
}

/** The key under which two pages' nodes are compared: role and name. */
export const keyOf = (n: Pick<AxNode, 'role' | 'name'>): string => `${n.role}\u0000${n.name}`;

/** `role "name" [attributes]` as a snapshot writes a node; undefined for what is not a node. */
function head(text: string): { role: string; name: string } | undefined {
  const m = /^([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?(?: \[.*\])*$/.exec(text.trim());
  if (m === null) return undefined;
  const [, role = '', quoted] = m;
  if (role === 'text') return undefined;
  let name = '';
  if (quoted !== undefined) {
    try {
      name = JSON.parse(quoted) as string;
    } catch {
      name = quoted.slice(1, -1);
    }
  }
  return { role, name };
}

function nodesOf(items: unknown): AxNode[] {
  if (!Array.isArray(items)) return [];
  const out: AxNode[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const h = head(item);
      if (h !== undefined) out.push({ ...h, children: [] });
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
        const h = head(key);
        if (h === undefined) continue;
        // `role "name": text` gives the node's text; a list under it gives its children.
        out.push({ ...h, children: nodesOf(value) });
      }
    }
  }
  return out;
}

/** The nodes of an ARIA snapshot (Locator.ariaSnapshot), in document order. */
export function parseSnapshot(snapshot: string): AxNode[] {
  let doc: unknown;
  try {
    doc = parse(snapshot);
  } catch {
    return [];
  }
  return nodesOf(doc);
}

/** Every node with the path of its ancestors, depth first. */
export interface Placed {
  readonly node: AxNode;
  readonly ancestors: readonly AxNode[];
}

export function flatten(nodes: readonly AxNode[], ancestors: readonly AxNode[] = []): Placed[] {
  return nodes.flatMap((node) => [
    { node, ancestors },
    ...flatten(node.children, [...ancestors, node]),
  ]);
}

/** A node's key with those of its ancestors: where on the page it is, as well as what. */
const pathKey = ({ node, ancestors }: Placed): string =>
  [...ancestors, node].map(keyOf).join('\u0001');

/** How many nodes of each path key a tree holds. */
function counts(nodes: readonly AxNode[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of flatten(nodes)) m.set(pathKey(p), (m.get(pathKey(p)) ?? 0) + 1);
  return m;
}

/**
 * The nodes of `base` that `other` holds fewer of at the same place (same role and name, under
 * ancestors of the same roles and names): gone there. `top` marks those whose parent stayed.
 */
export function gone(
  base: readonly AxNode[],
  other: readonly AxNode[],
): (Placed & { readonly top: boolean })[] {
  const there = counts(other);
  const here = counts(base);
  const isGone = (p: Placed) => (there.get(pathKey(p)) ?? 0) < (here.get(pathKey(p)) ?? 0);
  const all = flatten(base);
  const goneSet = new Set(all.filter(isGone).map(({ node }) => node));
  return all
    .filter(({ node }) => goneSet.has(node))
    .map((p) => {
      const parent = p.ancestors.at(-1);
      return { ...p, top: parent === undefined || !goneSet.has(parent) };
    });
}

/** Whether `node`'s subtree holds a node of this key. */
export function holds(node: AxNode, key: string): boolean {
  return flatten(node.children).some(({ node: n }) => keyOf(n) === key);
}

/** Roles a person operates (a control the page offers). */
export const CONTROL_ROLES = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'switch',
  'checkbox',
  'tab',
  'option',
  'combobox',
]);

/** Roles a filter's input may have. */
export const INPUT_ROLES = new Set(['textbox', 'combobox', 'searchbox', 'spinbutton', 'listbox']);

/**
 * A name with a per-item part written as a template: `{key}` where one of `values` stands in
 * it (the longest first, so a value holding another is taken whole). Undefined when none does.
 */
export function templateOf(name: string, values: readonly string[], key: string) {
  const byLength = [...values].filter((v) => v !== '').sort((a, b) => b.length - a.length);
  for (const v of byLength) {
    const at = name.indexOf(v);
    if (at >= 0) return `${name.slice(0, at)}{${key}}${name.slice(at + v.length)}`;
  }
  return undefined;
}
