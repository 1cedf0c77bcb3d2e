import { Link } from 'react-router-dom';
import type { ModerationItem, ReportedProfile } from '@tribuna/contracts/api/moderation';
import type { AuthorView, CommentView, MediaView, PostView } from '@tribuna/contracts/api/wall';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { MODERATION_MESSAGES, MODERATION_QUEUE_TEXTS } from '@tribuna/contracts/moderationRules';
import { Avatar } from '../../../components/Avatar';
import { formatDateTime } from '../../../lib/dates';
import { displayNameOf } from '../../../lib/displayName';
import { placeholderUrl } from '../../../lib/placeholder';
import { postHref } from '../../../lib/postHref';

/** Tiles shown of a post's images; the last one carries '+N' for the rest (as on the wall). */
const MAX_TILES = 4;

const frame = 'space-y-3 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:p-4 dark:bg-white/5 dark:ring-white/10';
const linkClass = 'inline-flex min-h-9 items-center text-sm font-semibold text-fuchsia-700 underline-offset-2 hover:underline dark:text-fuchsia-300';

/**
 * The reported item as its readers see it: a post (author, time, group, text, images or the clip's
 * poster), a comment (text and image) or a profile (name, bio). Read-only: no reactions, menus or
 * comments; a link to the real thing while readers can still see it. Null once deleted.
 */
export function ItemPreview({ item }: { item: ModerationItem }) {
  const visible = item.state === 'visible';
  if (item.post) return <PostPreview post={item.post} linked={visible} />;
  if (item.comment) return <CommentPreview comment={item.comment} linked={visible} />;
  if (item.profile) return <ProfilePreview profile={item.profile} />;
  return <p className={`${frame} text-sm text-slate-600 italic dark:text-slate-300`}>{MODERATION_MESSAGES.itemGone}</p>;
}

function Byline({ author, createdAt, editedAt }: { author: AuthorView; createdAt: string; editedAt: string | null }) {
  const name = displayNameOf(author);
  return (
    <div className="flex items-center gap-3">
      <Avatar name={name} src={author.avatarUrl} size="sm" />
      <div className="min-w-0">
        <p className="truncate text-sm font-bold">{name}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <time dateTime={createdAt}>{formatDateTime(createdAt)}</time>
          {editedAt && <span> · Editado</span>}
        </p>
      </div>
    </div>
  );
}

function Text({ children }: { children: string }) {
  if (!children) return null;
  return <p className="text-[15px] leading-relaxed break-words whitespace-pre-wrap">{children}</p>;
}

function PostPreview({ post, linked }: { post: PostView; linked: boolean }) {
  return (
    <div className={frame}>
      <Byline author={post.author} createdAt={post.createdAt} editedAt={post.editedAt} />
      {(post.groupName || post.visibility === 'followers') && (
        <p className="text-xs font-semibold text-slate-600 dark:text-slate-300">
          {[post.groupName && MODERATION_QUEUE_TEXTS.inGroup(post.groupName), post.visibility === 'followers' && MODERATION_QUEUE_TEXTS.followersOnly]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      <Text>{post.content}</Text>
      <MediaPreview media={post.media} />
      {linked && (
        <Link to={postHref({ postId: post.id })} className={linkClass}>
          {MODERATION_QUEUE_TEXTS.viewPost}
        </Link>
      )}
    </div>
  );
}

function CommentPreview({ comment, linked }: { comment: CommentView; linked: boolean }) {
  return (
    <div className={frame}>
      <Byline author={comment.author} createdAt={comment.createdAt} editedAt={comment.editedAt} />
      <Text>{comment.content}</Text>
      <MediaPreview media={comment.media ? [comment.media] : []} />
      {linked && (
        <Link to={postHref({ postId: comment.postId })} className={linkClass}>
          {MODERATION_QUEUE_TEXTS.viewPost}
        </Link>
      )}
    </div>
  );
}

function ProfilePreview({ profile }: { profile: ReportedProfile }) {
  const name = displayNameOf(profile);
  return (
    <div className={frame}>
      <div className="flex items-center gap-3">
        <Avatar name={name} src={profile.avatarUrl} />
        <div className="min-w-0">
          <p className="truncate font-bold">{name}</p>
          {profile.username && <p className="truncate text-sm text-slate-600 dark:text-slate-400">@{profile.username}</p>}
        </div>
      </div>
      {profile.isDeleted ? (
        <p className="text-sm text-slate-600 italic dark:text-slate-300">{MODERATION_QUEUE_TEXTS.deletedProfile}</p>
      ) : (
        <>
          {profile.bio && <Text>{profile.bio}</Text>}
          <Link to={`/perfil/${profile.id}`} className={linkClass}>
            {MODERATION_QUEUE_TEXTS.viewProfile}
          </Link>
        </>
      )}
    </div>
  );
}

/** m:ss, a clip's length. */
const duration = (seconds: number) => {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
};

/** An image over its ThumbHash placeholder (as the wall's tiles load). */
function Thumb({ media, className }: { media: MediaView; className: string }) {
  const placeholder = placeholderUrl(media.placeholder);
  return (
    <img
      src={presentableImageUrl(media.thumbnailUrl ?? media.url) ?? undefined}
      alt={media.alt ?? ''}
      width={media.width ?? undefined}
      height={media.height ?? undefined}
      loading="lazy"
      decoding="async"
      className={className}
      style={placeholder ? { backgroundImage: `url(${placeholder})`, backgroundSize: 'cover', backgroundPosition: 'center' } : undefined}
    />
  );
}

/**
 * The item's images, up to four tiles ('+N' over the last), each opening the full image; or a clip's
 * poster frame with its length, opening the clip. Nothing is played or downloaded in the queue itself.
 */
export function MediaPreview({ media }: { media: MediaView[] }) {
  if (media.length === 0) return null;
  const video = media.find((item) => item.mediaType === 'video');
  if (video) {
    const length = video.durationS ? ` (${duration(video.durationS)})` : '';
    return (
      <a
        href={presentableImageUrl(video.url) ?? undefined}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${MODERATION_QUEUE_TEXTS.viewClip}${length}`}
        className="relative block max-w-sm overflow-hidden rounded-xl bg-slate-900"
      >
        {video.thumbnailUrl ? (
          <Thumb media={{ ...video, url: video.thumbnailUrl }} className="aspect-video w-full object-cover" />
        ) : (
          <span aria-hidden="true" className="block aspect-video w-full" />
        )}
        <span aria-hidden="true" className="absolute bottom-2 left-2 rounded-full bg-black/75 px-2 py-0.5 text-xs font-bold text-white">
          ▶ {MODERATION_QUEUE_TEXTS.clip}
          {length}
        </span>
      </a>
    );
  }
  const shown = media.slice(0, MAX_TILES);
  const rest = media.length - shown.length;
  return (
    <ul aria-label={MODERATION_QUEUE_TEXTS.images(media.length)} className={`grid max-w-md gap-1 ${shown.length > 1 ? 'grid-cols-2' : 'grid-cols-1'}`}>
      {shown.map((item, index) => {
        const more = index === shown.length - 1 && rest > 0;
        const label = `${item.alt ? `${item.alt}. ` : ''}${MODERATION_QUEUE_TEXTS.viewImage(index + 1, media.length)}${more ? `, +${rest}` : ''}`;
        return (
          <li key={`${item.url}-${index}`}>
            <a
              href={presentableImageUrl(item.url) ?? undefined}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={label}
              className="relative block overflow-hidden rounded-lg bg-slate-200 dark:bg-white/10"
            >
              <Thumb media={item} className={`w-full object-cover ${shown.length > 1 ? 'aspect-square' : 'max-h-80'}`} />
              {more && (
                <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center bg-black/55 text-2xl font-black text-white">
                  +{rest}
                </span>
              )}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
