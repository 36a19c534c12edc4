// Types of bin/source-hash.mjs for the TypeScript that imports it (tools/build.ts, bench/).
import type * as TsxApi from 'tsx/esm/api';

export declare const ROOT: string;
export declare const DIST: string;
export declare const HASH_FILE: string;
export declare const CLI_BUNDLE: string;
export declare const CODE_CACHE: string;
export declare const SOURCE_DIRS: readonly string[];
export declare const SOURCE_FILES: readonly string[];
export declare function isHashedSource(file: string): boolean;
export declare function sourceFiles(root?: string, options?: { lock?: boolean }): string[];
export declare function sourceHash(root?: string, options?: { lock?: boolean }): string;
export declare function builtHash(root?: string): string | undefined;
export declare function bundleIsFresh(root?: string): boolean;
export declare function statFingerprint(root?: string): string;
export declare function renderHashFile(
  contentHash: string,
  fingerprint: string,
  sourcesOnly?: string,
): string;
export declare function distOf(root?: string): {
  dist: string;
  hashFile: string;
  bundle: string;
  codeCache: string;
};
export declare function sourcesLoader(forced: boolean): Promise<typeof TsxApi | undefined>;
