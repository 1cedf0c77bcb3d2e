import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { Poll } from '@tribuna/contracts/api/polls';
import { PointsForm } from './PointsForm';
import { isPointsMode, type OptionRow } from './pollView';
import { SingleChoiceForm } from './SingleChoiceForm';

interface VoteFormProps {
  poll: Poll;
  rows: OptionRow[];
  signedIn: boolean;
  myVotes: MyVotesResponse | null;
  onVoted: (response: MyVotesResponse) => void;
}

/** The vote form of an active poll, in its mode (single choice, or points when maxPointsPerUser > 1). */
export function VoteForm(props: VoteFormProps) {
  return (
    <section aria-label="Votar" className="rounded-3xl bg-slate-50 p-4 ring-1 ring-slate-200/70 sm:p-6 dark:bg-white/[0.02] dark:ring-white/10">
      {isPointsMode(props.poll) ? <PointsForm {...props} /> : <SingleChoiceForm {...props} />}
    </section>
  );
}
