import { Link } from 'react-router-dom';
import type { Voter } from '@tribuna/contracts/api/polls';
import { Avatar } from '../../components/Avatar';
import { Modal } from '../../components/Modal';
import { pointsLabel } from './pollView';

interface VotersDialogProps {
  optionLabel: string;
  voters: readonly Voter[];
  onClose: () => void;
}

/** Who voted for one option, with the points each gave. */
export function VotersDialog({ optionLabel, voters, onClose }: VotersDialogProps) {
  return (
    <Modal title={`Votantes de ${optionLabel}`} onClose={onClose}>
      {voters.length === 0 ? (
        <p className="py-8 text-center text-slate-500 dark:text-slate-400">No hay votos aún</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-white/5">
          {voters.map((voter) => (
            <li key={voter.userId} className="flex items-center gap-3 py-2.5">
              <Link to={`/perfil/${voter.userId}`} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
                <Avatar name={voter.displayName} src={voter.avatarUrl} />
              </Link>
              <Link
                to={`/perfil/${voter.userId}`}
                className="min-w-0 flex-1 truncate rounded font-semibold hover:text-fuchsia-600 hover:underline dark:hover:text-fuchsia-400"
              >
                {voter.displayName}
              </Link>
              <span className="shrink-0 rounded-full bg-fuchsia-600/10 px-2.5 py-1 text-xs font-bold text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300">
                {pointsLabel(voter.points)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
