import { Composer } from './Composer';
import { FeedList, GROUP_EMPTY } from './Feed';
import { GroupModeratorContext } from './groupModeration';
import { useFeed } from './useFeed';

export interface GroupWallProps {
  groupId: string;
  /** Members post here (the composer on top; visibility 'group'). */
  canPost: boolean;
  /** Admins and moderators of the group: 'Fijar' and 'Eliminar' on every post and comment. */
  canModerate: boolean;
}

/**
 * A group's wall (its page's Publicaciones tab): the composer for members, the pinned posts
 * ('Fijado') on top, the group's feed by activity with the live 'N publicaciones nuevas' from
 * `group:{id}`. app/GroupRoute.tsx hands it to the group's page.
 */
export function GroupWall({ groupId, canPost, canModerate }: GroupWallProps) {
  const feed = useFeed({ groupId });
  return (
    <GroupModeratorContext.Provider value={canModerate}>
      <div className="space-y-4">
        {canPost && <Composer groupId={groupId} onCreated={(post) => feed.dispatch({ type: 'prepend', post })} />}
        <FeedList feed={feed} empty={GROUP_EMPTY} />
      </div>
    </GroupModeratorContext.Provider>
  );
}
