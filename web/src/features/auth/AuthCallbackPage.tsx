import { PageSpinner } from '../../components/Spinner';

// Placeholder until the sign-in feature lands: it will complete the login and redirect by role.
export function AuthCallbackPage() {
  return <PageSpinner label="Completando inicio de sesión…" />;
}
