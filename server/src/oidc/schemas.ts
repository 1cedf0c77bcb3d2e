import { Type } from '@fastify/type-provider-typebox';

/** What the identity provider appends to the callback URL (other parameters are ignored). */
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
});

/** A redirect: the target is in the Location header, the body is empty. */
export const RedirectResponse = Type.Null({ description: 'Redirect; see the Location header' });
