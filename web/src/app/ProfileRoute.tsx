import { TwoFactorCard } from '../features/auth/TwoFactorCard';
import { SafetySettings } from '../features/moderation/SafetySettings';
import { ProfilePage } from '../features/profile/ProfilePage';
import { PushSettings } from '../features/push/PushSettings';
import { ProfilePosts } from '../features/wall/ProfilePosts';

/**
 * /perfil and /perfil/:userId: the profile page with what other features show in it, the wall's
 * posts of the user (the Posts tab), the sign-in's two-factor settings, the people one muted or
 * blocked and the web push settings (own profile). Features never import each other; the router composes them.
 */
export function ProfileRoute() {
  return <ProfilePage PostsPanel={ProfilePosts} SecuritySettings={TwoFactorCard} SafetySettings={SafetySettings} PushSettings={PushSettings} />;
}
