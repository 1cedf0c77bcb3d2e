import { Type, type Static } from '@sinclair/typebox';

/** Every 4xx/5xx body. `message` is what a person may read (Spanish where the spec shows it). */
export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const Uuid = Type.String({ format: 'uuid' });
export const IsoDate = Type.String({ format: 'date-time' });
