import { countdownParts, formatDateTime } from '../../lib/dates';

interface CountdownProps {
  remainingMs: number;
  endDate: string;
}

const UNITS = [
  ['days', 'días'],
  ['hours', 'horas'],
  ['minutes', 'minutos'],
  ['seconds', 'segundos'],
] as const;

/** Minute-level wording for screen readers: the visual digits change every second, this does not. */
function spokenRemaining(remainingMs: number): string {
  const { days, hours, minutes } = countdownParts(remainingMs);
  const parts = [
    days > 0 && `${days} ${days === 1 ? 'día' : 'días'}`,
    (days > 0 || hours > 0) && `${hours} ${hours === 1 ? 'hora' : 'horas'}`,
    `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`,
  ].filter(Boolean);
  return `La votación cierra en ${parts.join(', ')}`;
}

/** Time left on an active poll: days, hours, minutes, seconds. */
export function Countdown({ remainingMs, endDate }: CountdownProps) {
  const parts = countdownParts(remainingMs);
  return (
    <div role="timer" aria-label={spokenRemaining(remainingMs)} className="space-y-2">
      <p className="text-xs font-semibold tracking-widest text-white/80 uppercase" aria-hidden="true">
        La votación cierra en
      </p>
      <ol className="grid max-w-sm grid-cols-4 gap-2" aria-hidden="true">
        {UNITS.map(([unit, label]) => (
          <li key={unit} className="rounded-2xl bg-black/20 px-1 py-2 text-center backdrop-blur-sm">
            <span className="block text-2xl font-black tabular-nums sm:text-3xl">{String(parts[unit]).padStart(2, '0')}</span>
            <span className="block text-[11px] font-medium text-white/80">{label}</span>
          </li>
        ))}
      </ol>
      <p className="text-xs text-white/80">Cierra el {formatDateTime(endDate)}</p>
    </div>
  );
}
