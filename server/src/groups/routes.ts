import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { GROUP_ROUTES } from '@tribuna/contracts/api/groups';
import * as access from '../access/policy.ts';
import { serve } from '../http/serve.ts';
import { requireUser, requireWriter } from '../identity/plugin.ts';
import * as groups from './service.ts';

/** The viewer of a read (null: a visitor); a site admin reads private groups only with their powers (holdsAdminPowers). */
const viewerOf = (request: FastifyRequest): access.Viewer | null => access.viewerOf(request.user, request.server.config.requireAdminMfa);

/** Signed in and not suspended, with their admin powers. */
const writerOf = (request: FastifyRequest): groups.Actor => access.viewerOf(requireWriter(request), request.server.config.requireAdminMfa)!;

/** Signed in (suspended accounts too: leaving a group, reading its requests), with their admin powers. */
const userOf = (request: FastifyRequest): groups.Actor => access.viewerOf(requireUser(request), request.server.config.requireAdminMfa)!;

/** Fan clubs (GROUP_ROUTES): thin routes over groups/service.ts, with the context of the groups plugin. */
const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.groups;
  const { db } = ctx;

  serve(app, GROUP_ROUTES.listGroups, async (request) => groups.listGroups(db, request.query, viewerOf(request)));

  serve(app, GROUP_ROUTES.createGroup, async (request, reply) => reply.code(201).send(await groups.createGroup(ctx, writerOf(request), request.body)));

  serve(app, GROUP_ROUTES.getGroup, async (request) => groups.getGroup(db, request.params.groupId, viewerOf(request)));

  serve(app, GROUP_ROUTES.updateGroup, async (request) => groups.updateGroup(ctx, writerOf(request), request.params.groupId, request.body));

  serve(app, GROUP_ROUTES.deleteGroup, async (request, reply) => {
    await groups.deleteGroup(ctx, writerOf(request), request.params.groupId);
    return reply.code(204).send(null);
  });

  serve(app, GROUP_ROUTES.joinGroup, async (request) => groups.joinGroup(ctx, writerOf(request), request.params.groupId));

  serve(app, GROUP_ROUTES.leaveGroup, async (request) => groups.leaveGroup(ctx, userOf(request), request.params.groupId, request.body.successorId));

  serve(app, GROUP_ROUTES.listGroupMembers, async (request) => groups.listMembers(db, request.params.groupId, viewerOf(request), request.query.cursor));

  serve(app, GROUP_ROUTES.updateGroupMember, async (request) =>
    groups.changeRole(ctx, writerOf(request), request.params.groupId, request.params.userId, request.body.role),
  );

  serve(app, GROUP_ROUTES.removeGroupMember, async (request, reply) => {
    await groups.removeMember(ctx, writerOf(request), request.params.groupId, request.params.userId, request.query.ban === true);
    return reply.code(204).send(null);
  });

  serve(app, GROUP_ROUTES.listGroupRequests, async (request) => groups.listRequests(db, request.params.groupId, userOf(request), request.query.cursor));

  serve(app, GROUP_ROUTES.answerGroupRequest, async (request) =>
    groups.answerRequest(ctx, writerOf(request), request.params.groupId, request.params.userId, request.body.approve),
  );

  serve(app, GROUP_ROUTES.listGroupBans, async (request) => groups.listBans(db, request.params.groupId, userOf(request), request.query.cursor));

  serve(app, GROUP_ROUTES.unbanGroupMember, async (request, reply) => {
    await groups.unban(ctx, writerOf(request), request.params.groupId, request.params.userId);
    return reply.code(204).send(null);
  });

  serve(app, GROUP_ROUTES.pinPost, async (request) => groups.pinPost(ctx, writerOf(request), request.params.postId, request.body.pinned));
};

export default groupRoutes;
