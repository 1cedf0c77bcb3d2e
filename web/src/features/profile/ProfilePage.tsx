import { useParams } from 'react-router-dom';
import { ComingSoon } from '../../components/ComingSoon';
import { TwoFactorCard } from '../auth/TwoFactorCard';

// Placeholder until the profile feature lands; serves /perfil and /perfil/:userId.
// The own profile (/perfil) already carries its security settings.
export function ProfilePage() {
  const { userId } = useParams();
  if (userId) return <ComingSoon title="Perfil" />;
  return (
    <>
      <ComingSoon title="Perfil" compact />
      <section aria-labelledby="security-title" className="mx-auto max-w-2xl px-4 pb-12">
        <h2 id="security-title" className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          Seguridad
        </h2>
        <TwoFactorCard />
      </section>
    </>
  );
}
