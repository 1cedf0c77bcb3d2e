import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// ajv and ajv-formats are the validators Fastify itself runs on (through @fastify/ajv-compiler).

/** ajv-formats is CommonJS; depending on the loader its plugin is the default export or its `.default`. */
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Fastify's defaults, except that unknown properties are an error rather than silently removed. */
const BASE_OPTIONS: Options = {
  useDefaults: true,
  removeAdditional: false,
  addUsedSchema: false,
  // allErrors would let a crafted body make validation expensive.
  allErrors: false,
};

function createAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...BASE_OPTIONS, coerceTypes });
  addFormats(ajv);
  return ajv;
}

/**
 * JSON bodies are validated as sent: with Fastify's default type coercion a `null` sent for a
 * `string | null` field would become "" (and 0 for numbers). URL parts (params, querystring,
 * headers) are always strings, so there coercion stays on.
 */
const bodyAjv = createAjv(false);
const urlAjv = createAjv('array');

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : urlAjv;
  const id = (schema as { $id?: string }).$id;
  if (id) {
    const known = ajv.getSchema(id);
    if (known) return known as ValidateFunction;
  }
  return ajv.compile(schema as object);
};
