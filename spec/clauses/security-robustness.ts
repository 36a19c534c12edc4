import { defineClauses } from './types.ts';

/**
 * Level `security`: what no trustworthy server may do although the document does not spell
 * it out. Each clause hangs on the section whose promise it protects.
 */
export const securityRobustness = defineClauses([]);
