import { Type } from '@fastify/type-provider-typebox';

/** Longest values the callback accepts; a longer one is a failed sign-in, not a provider's answer. */
export const CALLBACK_LIMITS = { code: 4096, state: 1024, error: 256 } as const;

/** A query value as a browser may send it: once, or repeated (a list). */
const QueryValue = Type.Union([Type.String(), Type.Array(Type.String())]);

/**
 * What the identity provider appends to the callback URL (other parameters are ignored). The
 * callback is a browser navigation: a mangled query (a repeated or over-long value) must still end
 * on the web's failure page, not on a JSON 400, so the handler checks shapes and lengths itself.
 */
export const CallbackQuery = Type.Object({
  code: Type.Optional(QueryValue),
  state: Type.Optional(QueryValue),
  error: Type.Optional(QueryValue),
});

/** A redirect: the target is in the Location header, the body is empty. */
export const RedirectResponse = Type.Null({ description: 'Redirect; see the Location header' });
