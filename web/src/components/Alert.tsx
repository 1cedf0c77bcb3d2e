import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon } from './icons';

interface AlertProps {
  /** 'error': a red box announced at once (role="alert"); 'success': a green one announced politely. */
  tone?: 'error' | 'success';
  children: ReactNode;
  className?: string;
  id?: string;
}

/** An inline message box, the spec's "inline red box" for errors. */
export function Alert({ tone = 'error', children, className = '', id }: AlertProps) {
  const error = tone === 'error';
  const Icon = error ? AlertIcon : CheckIcon;
  return (
    <div
      id={id}
      role={error ? 'alert' : 'status'}
      className={`flex items-start gap-2.5 rounded-2xl border px-4 py-3 text-sm font-medium ${
        error
          ? 'border-rose-300 bg-rose-50 text-rose-800 dark:border-rose-500/40 dark:bg-rose-500/10 dark:text-rose-200'
          : 'border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-200'
      } ${className}`}
    >
      <Icon className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">{children}</div>
    </div>
  );
}
