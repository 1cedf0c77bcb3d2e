import { nextThemeLabel, useThemeStore } from '../lib/themeStore';
import { MoonIcon, SunIcon } from './icons';

interface ThemeToggleProps {
  /** 'tab': mobile bottom-bar item (icon over its label); 'icon': round icon button; 'pill': icon and label. */
  variant?: 'tab' | 'icon' | 'pill';
  className?: string;
}

/** Switches between light and dark; the label names the theme it switches to. */
export function ThemeToggle({ variant = 'icon', className = '' }: ThemeToggleProps) {
  const theme = useThemeStore((state) => state.theme);
  const toggleTheme = useThemeStore((state) => state.toggleTheme);
  const label = nextThemeLabel(theme);
  const Icon = theme === 'dark' ? SunIcon : MoonIcon;
  const accessibleName = `Cambiar a modo ${label.toLowerCase()}`;

  if (variant === 'tab') {
    return (
      <button type="button" onClick={toggleTheme} aria-label={accessibleName} className={className}>
        <Icon className="size-6" />
        <span aria-hidden="true" className="text-[11px] font-medium">
          {label}
        </span>
      </button>
    );
  }

  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={accessibleName}
      title={accessibleName}
      className={
        variant === 'pill'
          ? `inline-flex items-center gap-2 rounded-full px-3 py-2 text-sm font-medium text-slate-600 transition hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10 ${className}`
          : `inline-flex size-10 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10 ${className}`
      }
    >
      <Icon className="size-5" />
      {variant === 'pill' && <span aria-hidden="true">{label}</span>}
    </button>
  );
}
