import { ComingSoon } from '../../components/ComingSoon';

// Placeholder until the back-office lands; mounted under /admin/*.
export function AdminPage() {
  return <ComingSoon title="Administración" />;
}
