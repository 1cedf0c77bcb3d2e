import type { FastifySchemaValidationError } from 'fastify';
import { SAFE_TEXT_MESSAGES } from '@tribuna/contracts/api/common';

/**
 * Turns Ajv errors into one readable sentence per field, e.g.
 * `body/deviceType must be one of "mobile", "desktop"` instead of three raw anyOf branch errors.
 */
export function formatValidationErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const byPath = new Map<string, FastifySchemaValidationError[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }

  const messages = new Set<string>();
  for (const [path, pathErrors] of byPath) {
    messages.add(`${dataVar}${path} ${describe(pathErrors)}`);
  }
  return new Error([...messages].join('; '));
}

function describe(errors: FastifySchemaValidationError[]): string {
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  if (anyOf) {
    const branches = errors.filter((e) => e !== anyOf && e.schemaPath.startsWith(`${anyOf.schemaPath}/`));
    if (branches.length > 0 && branches.every((e) => e.keyword === 'const')) {
      return `must be one of ${branches.map((e) => JSON.stringify(e.params.allowedValue)).join(', ')}`;
    }
    if (branches.length > 0 && branches.every((e) => e.keyword === 'type')) {
      return `must be ${[...new Set(branches.map((e) => String(e.params.type)))].join(' or ')}`;
    }
    return messageOf(branches.find((e) => e.keyword !== 'type') ?? branches[0] ?? anyOf);
  }
  const first = errors[0]!;
  if (first.keyword === 'additionalProperties') {
    return `must NOT have additional property "${String(first.params.additionalProperty)}"`;
  }
  return messageOf(first);
}

/** Ajv's message, except for the shared text patterns, whose regular expression says nothing to a person. */
function messageOf(error: FastifySchemaValidationError): string {
  if (error.keyword === 'pattern') {
    const known = SAFE_TEXT_MESSAGES[String(error.params.pattern)];
    if (known) return known;
  }
  return error.message ?? 'is invalid';
}
