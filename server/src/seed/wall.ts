// Groups, posts with pictures, comments with one level of replies, and reactions.
import { randomUUID } from 'node:crypto';
import { GROUPS, POSTS } from './content.ts';
import { avatarSvg, bannerSvg, sceneSvg } from './images.ts';
import type { DemoData, PlanContext, PlannedUser, PostImageJob } from './plan.ts';

const REACTIONS = ['like', 'like', 'like', 'love', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
const HOUR = 3_600_000;

export function planWall(ctx: PlanContext) {
  const groups: DemoData['groups'] = [];
  const groupMembers: DemoData['groupMembers'] = [];
  const posts: DemoData['posts'] = [];
  const postImages: PostImageJob[] = [];
  const comments: DemoData['comments'] = [];
  const postReactions: DemoData['postReactions'] = [];
  const commentReactions: DemoData['commentReactions'] = [];
  const groupIds = new Map<string, string>();
  const { clock, random } = ctx;

  GROUPS.forEach((group, index) => {
    const id = randomUUID();
    groupIds.set(group.key, id);
    const founder = ctx.user(group.members[0]!.username);
    const createdAt = new Date(Math.min(founder.createdAt.getTime() + 24 * HOUR, clock.hoursAgo(48).getTime()));
    groups.push({
      id,
      name: group.name,
      description: group.description,
      avatarUrl: ctx.image(`group-${group.key}-avatar`, avatarSvg(group.name, index + 7)),
      coverUrl: ctx.image(`group-${group.key}-cover`, bannerSvg(group.name, index + 2)),
      privacy: group.privacy,
      createdAt,
      updatedAt: createdAt,
    });
    for (const member of group.members) {
      const user = ctx.user(member.username);
      const from = new Date(Math.max(createdAt.getTime(), user.createdAt.getTime()));
      groupMembers.push({
        groupId: id,
        userId: user.id,
        role: member.role,
        joinedAt: member === group.members[0] ? createdAt : random.between(from, clock.hoursAgo(1)),
      });
    }
  });

  POSTS.forEach((spec, postIndex) => {
    const author = ctx.user(spec.by);
    const id = randomUUID();
    const createdAt = clock.hoursAgo(spec.hoursAgo);
    mustBeAfterJoining(author, createdAt, `post ${postIndex + 1}`);
    const groupId = spec.group ? groupIds.get(spec.group) : null;
    if (spec.group && !groupId) throw new Error(`Demo post names an unknown group "${spec.group}"`);

    (spec.images ?? []).forEach((picture, order) => {
      postImages.push({
        postId: id,
        order,
        uploadedBy: author.id,
        svg: sceneSvg(picture.kind, picture.caption, postIndex * 5 + order, picture.width, picture.height),
        // Photos from a phone (JPEG) and the odd screenshot (PNG), as uploads come.
        format: (postIndex + order) % 3 === 2 ? 'png' : 'jpeg',
        alt: picture.alt ?? null,
      });
    });

    let lastActivityAt = createdAt;
    const addComment = (by: string, text: string, hoursAfterPost: number, parentCommentId: string | null) => {
      const user = ctx.user(by);
      const at = new Date(createdAt.getTime() + hoursAfterPost * HOUR);
      if (at > clock.now) throw new Error(`Demo comment on post ${postIndex + 1} is in the future`);
      mustBeAfterJoining(user, at, `comment on post ${postIndex + 1}`);
      const commentId = randomUUID();
      comments.push({ id: commentId, postId: id, userId: user.id, parentCommentId, content: text, createdAt: at, updatedAt: at });
      if (at > lastActivityAt) lastActivityAt = at;
      for (const reactor of reactors(ctx, at, 0, 3, user.id)) {
        commentReactions.push({
          commentId,
          userId: reactor.id,
          reactionType: random.pick(REACTIONS),
          createdAt: random.between(maxDate(at, reactor.createdAt), clock.now),
        });
      }
      return commentId;
    };
    for (const comment of spec.comments ?? []) {
      const parentId = addComment(comment.by, comment.text, comment.hoursAfterPost, null);
      for (const reply of comment.replies ?? []) addComment(reply.by, reply.text, reply.hoursAfterPost, parentId);
    }

    posts.push({
      id,
      userId: author.id,
      groupId: groupId ?? null,
      content: spec.content,
      visibility: groupId ? 'group' : 'public',
      isPinned: spec.pinned ?? false,
      isHidden: false,
      lastActivityAt,
      createdAt,
      updatedAt: createdAt,
    });
    for (const reactor of reactors(ctx, createdAt, 2, 9)) {
      postReactions.push({
        postId: id,
        userId: reactor.id,
        reactionType: random.pick(REACTIONS),
        createdAt: random.between(maxDate(createdAt, reactor.createdAt), clock.now),
      });
    }
  });

  return { groups, groupMembers, posts, postImages, comments, postReactions, commentReactions };
}

/** Between min and max distinct users who had joined by `after`, never `exceptId`. */
function reactors(ctx: PlanContext, after: Date, min: number, max: number, exceptId?: string): PlannedUser[] {
  const eligible = ctx.users.filter((u) => u.createdAt <= after && u.id !== exceptId);
  const count = Math.min(eligible.length, ctx.random.int(min, max));
  return ctx.random.shuffle(eligible).slice(0, count);
}

function mustBeAfterJoining(user: PlannedUser, at: Date, what: string): void {
  if (at < user.createdAt) throw new Error(`Demo ${what} by ${user.username} predates the account`);
}

function maxDate(a: Date, b: Date): Date {
  return a > b ? a : b;
}
