import fc from 'fast-check';
import type { JsonSchema } from './routes.ts';

/**
 * JSON values derived from a route's JSON Schema (TypeBox output) with fast-check: mostly values
 * that conform, mutated at every depth into what an attacker would send instead (wrong types,
 * boundary lengths and numbers, extra or missing properties, NUL bytes, lone surrogates, …).
 */

/** A JSON fragment written as is: numbers JSON.stringify cannot produce (-0, 1e999, 9007199254740993). */
class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a generated value, RawJson fragments included verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, entry]) => `${JSON.stringify(key)}:${toJsonText(entry)}`)
      .join(',')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

export interface SchemaArbitraryOptions {
  /** Ids of real rows, offered wherever a schema asks for a uuid. */
  uuids: readonly string[];
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u0007\u001b[31m',
  '\r\n',
  '\u2028',
  '\u202e',
  '\ufeff',
  '%00',
  '%',
  '🙂',
  'ＡＢＣ',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '__proto__',
  'null',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x10',
  'ELIMINAR',
] as const;

const hugeString = fc
  .tuple(fc.constantFrom(2_049, 10_000, 100_000), fc.constantFrom('x', '\u0000', '\ud800', 'é'))
  .map(([length, unit]) => unit.repeat(length));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);

const nastyNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MAX_VALUE),
  fc.constantFrom('1e308', '-1e308', '1e999', '-1e999', '-0', '0.0', '1E+2', '9007199254740993', '1e-400').map((text) => new RawJson(text)),
  fc.double(),
  fc.integer(),
);

const keyArbitrary = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'toString', 'optionId', 'userId', 'id', 'role', 'isAdmin'),
);

/** Any JSON value, biased towards the nasty ones. */
export const junkJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(keyArbitrary, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
  ),
})).value;

/** Raw bodies: nesting far beyond any schema's depth. */
export const deepNesting: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(100, 5_000, 50_000), fc.boolean())
  .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

type Schema = JsonSchema & {
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

/** Mostly conforming values, sometimes mutated, at every depth. */
export function validish(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: conforming(schema as Schema, options) }, { weight: 1, arbitrary: mutated(schema as Schema, options) });
}

/** Values of the schema's own shape (children still validish, so mutations hide at any depth). */
function conforming(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0) return fc.oneof(...branches.map((branch) => validish(branch, options)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return conforming(schema.allOf[0]!, options);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectOf(schema, options);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(validish(schema.items ?? {}, options), { minLength, maxLength: Math.min(schema.maxItems ?? minLength + 4, minLength + 4) });
    }
    case 'string':
      return stringOf(schema, options);
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -(2 ** 31)), max: Math.floor(schema.maximum ?? 2 ** 31) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return junkJson;
  }
}

function objectOf(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validish(property, options)]));
  const required = (schema.required ?? []).filter((key) => key in properties);
  return fc.record(model, { requiredKeys: required });
}

function stringOf(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<string> {
  if (schema.format === 'uuid') {
    return options.uuids.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...options.uuids) }, { weight: 1, arbitrary: fc.uuid() }) : fc.uuid();
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  const base = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern), { size: 'small' })
    : fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40) });
  const fitted = base.map((text) => (text.length > maxLength ? text.slice(0, maxLength) : text.padEnd(minLength, 'a')));
  // The longest value the schema accepts, where length limits bite.
  return fc.oneof({ weight: 9, arbitrary: fitted }, { weight: 1, arbitrary: fitted.map((text) => text.padEnd(maxLength, 'a').slice(0, maxLength)) });
}

/** What a careless or hostile client sends instead of the schema's value. */
function mutated(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const mutations: fc.Arbitrary<unknown>[] = [junkJson, nastyString, nastyNumber];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const base = objectOf(schema, options) as fc.Arbitrary<Record<string, unknown>>;
    // Extra properties, including the ones that poison prototypes.
    mutations.push(
      fc
        .tuple(base, fc.array(fc.tuple(keyArbitrary, junkJson), { minLength: 1, maxLength: 3 }))
        .map(([value, extra]) => ({ ...value, ...Object.fromEntries(extra) })),
    );
    // A required property missing.
    const required = schema.required ?? [];
    if (required.length > 0) {
      mutations.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
          const copy = { ...value };
          delete copy[key];
          return copy;
        }),
      );
    }
  }
  if (type === 'array') {
    const items = schema.items ?? {};
    mutations.push(fc.constant([]), fc.array(validish(items, options), { minLength: (schema.maxItems ?? 50) + 1, maxLength: (schema.maxItems ?? 50) + 2 }));
  }
  if (type === 'string') {
    const maxLength = schema.maxLength ?? 200;
    mutations.push(
      fc.constant('a'.repeat(maxLength + 1)),
      conforming(schema, options).map((text) => `${typeof text === 'string' ? text : ''}\u0000`),
    );
    if (schema.format === 'uuid')
      mutations.push(
        fc.uuid().map((id) => id.toUpperCase()),
        fc.constant('00000000-0000-0000-0000-000000000000'),
      );
  }
  if (type === 'integer' || type === 'number') {
    const bounds = [schema.minimum, schema.maximum].filter((bound): bound is number => bound !== undefined);
    mutations.push(fc.constantFrom(...bounds.flatMap((bound) => [bound - 1, bound + 1, bound + 0.5]), 0.5), fc.integer().map(String));
  }
  return fc.oneof(...mutations);
}
