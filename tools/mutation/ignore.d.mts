// Types of the helpers of tools/mutation/ignore.mjs (plain JavaScript, loaded by Stryker), for
// tools/mutation/judgements.test.ts.
/** The part of a Babel NodePath the ignorer reads (the project has no @babel/core types). */
export interface NodePath {
  node: { type: string; start?: number | null; end?: number | null };
  parentPath: NodePath | null;
}

export interface Judgement {
  file: string;
  code: string | string[];
  codes: string[];
  mutators: string[] | 'all';
  reason: string;
  range?: boolean;
  within?: string | string[];
}
export function loadJudgements(file?: string): Judgement[];
export function mutatedBy(mutators: string[] | 'all', path: NodePath): boolean;
export function judge(
  judgements: Judgement[],
  home?: (file: string) => string | undefined,
): (path: NodePath, file: string | undefined, source?: string) => Judgement[];
export const ignorer: { shouldIgnore(path: NodePath): string | undefined };
export const strykerPlugins: unknown[];
