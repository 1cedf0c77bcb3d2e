import { Type, type Static } from '@fastify/type-provider-typebox';
export { PollParams } from '@tribuna/contracts/api/polls';

/**
 * GET /api/polls/home?encuesta=<pollId>: a shared link (`/?encuesta=<id>`) shows the shared poll
 * when it is public. Anything else (unknown id, draft, not an id at all) falls back to the usual
 * home poll rather than failing the page.
 */
export const HomePollQuery = Type.Object({
  // Repeated (`?encuesta=a&encuesta=b`) it arrives as a list: the first one counts.
  encuesta: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
});
export type HomePollQuery = Static<typeof HomePollQuery>;
