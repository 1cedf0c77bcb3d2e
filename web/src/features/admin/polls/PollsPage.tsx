import { ComingSoon } from '../../../components/ComingSoon';

// Placeholder while the screen is built (replaced by the back-office work in progress).
export function PollsPage() {
  return <ComingSoon title="Encuestas" />;
}
