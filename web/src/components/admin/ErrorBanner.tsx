import { Alert } from '../Alert';
import { errorMessage } from '../../lib/api';

interface ErrorBannerProps {
  /** The failure (an ApiError or anything thrown); null shows nothing. */
  error: unknown;
  /** The spec's §8 fallback, shown when the server sent no message of its own. */
  fallback: string;
  /** Offers "Reintentar" (e.g. after a failed load). */
  onRetry?: () => void;
  className?: string;
}

/** The back-office's red banner: the backend's message, or the §8 fallback when there is none. */
export function ErrorBanner({ error, fallback, onRetry, className = '' }: ErrorBannerProps) {
  if (error === null || error === undefined) return null;
  return (
    <Alert className={className}>
      <span>{errorMessage(error, fallback)}</span>
      {onRetry && (
        <button type="button" onClick={onRetry} className="ml-2 font-bold underline underline-offset-2 hover:no-underline">
          Reintentar
        </button>
      )}
    </Alert>
  );
}
