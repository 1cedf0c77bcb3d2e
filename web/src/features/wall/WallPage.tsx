import { ComingSoon } from '../../components/ComingSoon';

// Placeholder until the wall feature lands.
export function WallPage() {
  return <ComingSoon title="Muro" />;
}
