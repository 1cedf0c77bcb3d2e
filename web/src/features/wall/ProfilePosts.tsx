import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { PostFeed } from './Feed';

/**
 * A profile's Posts tab: the wall's feed filtered to this user (pages of 20, newest first), with the
 * profile's badges. app/ProfileRoute.tsx hands it to the profile page.
 */
export function ProfilePosts({ userId, own }: { userId: string; own: boolean }) {
  return (
    <PostFeed
      filters={{ userId, sort: 'recent' }}
      empty={{ title: own ? PROFILE_MESSAGES.postsEmptyOwn : PROFILE_MESSAGES.postsEmptyOther, body: '' }}
      loadFailedText={PROFILE_MESSAGES.postsLoadFailed}
      moreLabel="Cargar más"
      infinite={false}
      details
    />
  );
}
