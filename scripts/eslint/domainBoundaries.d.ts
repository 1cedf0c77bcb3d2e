import type { Rule } from 'eslint';

/** { root, domain } of an absolute path under server/src or worker/src (domain null at the root), or null. */
export declare function domainOf(file: string, cwd: string): { root: string; domain: string | null } | null;
/** The rule `tribuna/domain-boundaries`. */
export declare const domainBoundaries: Rule.RuleModule;
declare const plugin: { rules: Record<string, Rule.RuleModule> };
export default plugin;
