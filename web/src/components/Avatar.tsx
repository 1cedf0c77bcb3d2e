import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

interface AvatarProps {
  name: string;
  src: string | null;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const SIZES = { sm: 'size-8 text-sm', md: 'size-10 text-base', lg: 'size-16 text-2xl' } as const;

export function initialOf(name: string): string {
  return (name.trim()[0] ?? '?').toLocaleUpperCase('es');
}

/** A round picture, or the name's initial letter when there is none. Decorative: the name is shown beside it. */
export function Avatar({ name, src, size = 'md', className = '' }: AvatarProps) {
  const base = `${SIZES[size]} shrink-0 rounded-full ${className}`;
  const url = presentableImageUrl(src);
  if (url) return <img src={url} alt="" loading="lazy" className={`${base} bg-slate-200 object-cover dark:bg-ink-800`} />;
  return (
    <span aria-hidden="true" className={`${base} brand-gradient inline-flex items-center justify-center font-bold text-white`}>
      {initialOf(name)}
    </span>
  );
}
