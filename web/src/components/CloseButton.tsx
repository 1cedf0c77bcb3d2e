import { CloseIcon } from './icons';

interface CloseButtonProps {
  onClick: () => void;
  /** The accessible name (the button shows only the cross). */
  label?: string;
  /** Size, colours and placement of the round button. */
  className: string;
  iconClassName: string;
}

/** A round icon-only button with a cross, for closing a dialog or dismissing a banner. */
export function CloseButton({ onClick, label = 'Cerrar', className, iconClassName }: CloseButtonProps) {
  return (
    <button type="button" onClick={onClick} aria-label={label} className={`inline-flex items-center justify-center rounded-full ${className}`}>
      <CloseIcon className={iconClassName} />
    </button>
  );
}
