import { ComingSoon } from '../../components/ComingSoon';

// Placeholder until the sign-in feature lands (Google button, dev login, legal modals).
export function LoginPage() {
  return <ComingSoon title="Iniciar sesión" />;
}
