import { initialOf } from '../../components/Avatar';
import type { PollOption } from '@tribuna/contracts/api/polls';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

const SIZES = { md: 'size-12 text-xl', lg: 'size-14 text-2xl' } as const;

/** The contestant's photo, else the option label's initial on the brand gradient. Decorative: the name is beside it. */
export function OptionAvatar({ option, label, size = 'lg' }: { option: PollOption; label: string; size?: keyof typeof SIZES }) {
  const photo = presentableImageUrl(option.contestant?.photoUrl);
  const base = `${SIZES[size]} shrink-0 rounded-2xl`;
  if (photo) return <img src={photo} alt="" loading="lazy" className={`${base} bg-slate-200 object-cover dark:bg-ink-800`} />;
  return (
    <span aria-hidden="true" className={`${base} brand-gradient inline-flex items-center justify-center font-black text-white`}>
      {initialOf(label)}
    </span>
  );
}
