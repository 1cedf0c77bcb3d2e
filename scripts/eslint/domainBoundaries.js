// ESLint rule `tribuna/domain-boundaries`: a server (or worker) domain reaches another only through
// that domain's public face (its service.ts, plugin, presenter, types), never its repository: the
// SQL of a domain is private to it (ARCHITECTURE.md: "repositories the only SQL"). A domain is a
// top-level folder of server/src or worker/src; its sub-folders are part of it (identity/sessions
// may use identity/accounts/repository.ts). Relative imports and re-exports are checked.
import path from 'node:path';

const ROOTS = ['server/src', 'worker/src'];
const REPOSITORY = /(^|[a-z])[Rr]epository\.ts$/;

/** { root, domain } of an absolute path under one of ROOTS (domain null for a file at the root), or null. */
export function domainOf(file, cwd) {
  const relative = path.relative(cwd, file).split(path.sep).join('/');
  for (const root of ROOTS) {
    if (!relative.startsWith(`${root}/`)) continue;
    const rest = relative.slice(root.length + 1).split('/');
    return { root, domain: rest.length > 1 ? rest[0] : null };
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const domainBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "Another domain's repository is private to it: go through its service" },
    schema: [],
    messages: {
      foreignRepository:
        "'{{target}}' is the {{domain}} domain's repository: reach {{domain}} through its service.ts (or another public module), never its SQL.",
    },
  },
  create(context) {
    const cwd = context.cwd;
    const from = domainOf(context.filename, cwd);
    if (!from) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), specifier);
      if (!REPOSITORY.test(path.basename(target))) return;
      const to = domainOf(target, cwd);
      if (!to || to.root !== from.root || to.domain === from.domain) return;
      context.report({ node: node.source, messageId: 'foreignRepository', data: { target: specifier, domain: to.domain ?? to.root } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'domain-boundaries': domainBoundaries } };
