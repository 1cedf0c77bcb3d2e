import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { Avatar } from '../../components/Avatar';
import { AlertIcon } from '../../components/icons';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useVideoUploadsStore, type PendingVideo } from './videoUploadsStore';

/**
 * The author's clips being processed, on top of their feed: 'Procesando video…' over a pulsing
 * frame (a polite status, so the change to 'No pudimos procesar el video' is announced too), and
 * 'Descartar' once one failed. `show` picks the clips of this feed (videoUploadsScope).
 */
export function VideoUploadCards({ show }: { show: (groupId: string | null) => boolean }) {
  const uploads = useVideoUploadsStore((state) => state.uploads);
  const user = useSessionStore((state) => state.user);
  const shown = uploads.filter((upload) => show(upload.groupId));
  if (!user || shown.length === 0) return null;
  const name = displayNameOf(user);
  return (
    <div className="space-y-4">
      {shown.map((upload) => (
        <PendingVideoCard key={upload.id} upload={upload} name={name} avatarUrl={user.avatarUrl} />
      ))}
    </div>
  );
}

function PendingVideoCard({ upload, name, avatarUrl }: { upload: PendingVideo; name: string; avatarUrl: string | null }) {
  const dismissed = useVideoUploadsStore((state) => state.dismissed);
  const failed = upload.status === 'failed';
  return (
    <article
      aria-label={failed ? 'Tu video no se publicó' : 'Tu video en proceso'}
      className="space-y-3 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 sm:p-5 dark:bg-ink-900 dark:ring-white/10"
    >
      <header className="flex items-center gap-3">
        <Avatar name={name} src={avatarUrl} />
        <p className="min-w-0 flex-1 truncate font-bold">{name}</p>
      </header>
      {upload.content && <p className="text-[15px] leading-relaxed break-words whitespace-pre-wrap">{upload.content}</p>}
      <div
        className={`flex aspect-video flex-col items-center justify-center gap-3 rounded-2xl px-4 text-center ${
          failed ? 'bg-rose-50 ring-1 ring-rose-200 dark:bg-rose-500/10 dark:ring-rose-500/30' : 'bg-slate-100 dark:bg-white/5'
        }`}
      >
        {failed ? (
          <AlertIcon className="size-8 text-rose-600 dark:text-rose-300" />
        ) : (
          <span aria-hidden="true" className="size-9 rounded-full border-4 border-fuchsia-500/25 border-t-fuchsia-500 motion-safe:animate-spin" />
        )}
        <p role="status" className={`text-sm font-semibold ${failed ? 'text-rose-800 dark:text-rose-200' : 'text-slate-700 dark:text-slate-200'}`}>
          {failed ? WALL_MESSAGES.videoFailed : WALL_MESSAGES.videoProcessing}
        </p>
        {failed && (
          <button
            type="button"
            onClick={() => dismissed(upload.id)}
            className="rounded-full bg-rose-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-rose-700"
          >
            Descartar
          </button>
        )}
      </div>
    </article>
  );
}
