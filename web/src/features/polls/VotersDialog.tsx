import { Link } from 'react-router-dom';
import type { Voter } from '@tribuna/contracts/api/polls';
import { Avatar } from '../../components/Avatar';
import { Modal } from '../../components/Modal';
import { formatCount, votersLabel } from './pollView';

interface VotersDialogProps {
  optionLabel: string;
  /** The named voters (newest first); empty when the reader may not see them. */
  voters: readonly Voter[];
  /** Everyone who voted for the option, named or not. */
  totalVoters: number;
  /** Whether the reader may see who voted (signed in); otherwise counts only. */
  listed: boolean;
  onClose: () => void;
}

/**
 * Who voted for one option: names only (never the points each gave), of the fans who keep
 * "Mostrar mi nombre en las listas de votantes" on, for signed-in readers. The others are counted
 * ('y N más'); a visitor gets the count and an invitation to sign in.
 */
export function VotersDialog({ optionLabel, voters, totalVoters, listed, onClose }: VotersDialogProps) {
  const unnamed = Math.max(0, totalVoters - voters.length);
  return (
    <Modal title={`Votantes de ${optionLabel}`} onClose={onClose}>
      {totalVoters === 0 && voters.length === 0 ? (
        <p className="py-8 text-center text-slate-500 dark:text-slate-400">No hay votos aún</p>
      ) : !listed ? (
        <div className="space-y-3 py-6 text-center">
          <p className="text-lg font-bold">{votersLabel(totalVoters)}</p>
          <p className="text-slate-600 dark:text-slate-300">
            <Link to="/login" className="font-semibold text-fuchsia-700 hover:underline dark:text-fuchsia-300">
              Inicia sesión para ver quién votó
            </Link>
          </p>
        </div>
      ) : (
        <>
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
              </li>
            ))}
          </ul>
          {unnamed > 0 && (
            <p className="pt-3 text-center text-sm text-slate-500 dark:text-slate-400">
              {voters.length === 0 ? votersLabel(unnamed) : `y ${formatCount(unnamed)} más`}
            </p>
          )}
        </>
      )}
    </Modal>
  );
}
