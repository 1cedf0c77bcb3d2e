import { ComingSoon } from '../../components/ComingSoon';

// Placeholder until the profile feature lands; serves /perfil and /perfil/:userId.
export function ProfilePage() {
  return <ComingSoon title="Perfil" />;
}
