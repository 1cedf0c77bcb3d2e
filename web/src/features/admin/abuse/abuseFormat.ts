import { ABUSE_LIMITS, ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseAccount } from '@tribuna/contracts/api/admin/abuse';

const countFormat = new Intl.NumberFormat('es-MX');
const decimalFormat = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });
const rateFormat = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });

export const formatCount = (n: number) => countFormat.format(n);

/** A device id cut to `length` characters, with '…' when it was longer (spec §8: 16 for devices, 8 for a user's devices). */
export function truncateId(id: string, length: number): string {
  return id.length > length ? `${id.slice(0, length)}…` : id;
}

export const deviceLabel = (fingerprint: string) => truncateId(fingerprint, ABUSE_LIMITS.deviceIdShown);
export const userDeviceLabel = (fingerprint: string) => truncateId(fingerprint, ABUSE_LIMITS.userDeviceIdShown);

/** Account age: '36 h', '0.5 h'. */
export const formatAge = (hours: number) => `${decimalFormat.format(hours)} h`;
/** Votes per hour: '2.25 votos/h'. */
export const formatRate = (perHour: number) => `${rateFormat.format(perHour)} votos/h`;

export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Who the account is, for people: display name, else @username, else its id. */
export function accountName(account: Pick<AbuseAccount, 'displayName' | 'username' | 'userId'>): string {
  return account.displayName || (account.username ? `@${account.username}` : account.userId);
}

/** The users screen searching for this account (by username, else display name, else id). */
export function usersScreenLink(account: Pick<AbuseAccount, 'displayName' | 'username' | 'userId'>): string {
  const q = account.username || account.displayName || account.userId;
  return `/admin/usuarios?q=${encodeURIComponent(q)}`;
}

/** 'Error: ' plus the message (spec §8: the abuse report's own form). */
export const abuseError = (message: string) => `${ABUSE_MESSAGES.errorPrefix}${message}`;

/** What a void or restore did: '3 votos anulados', '1 voto restaurado', plus '2 omitidos' when some were left as they were. */
export function voidResultText(action: 'void' | 'restore', changed: number, skipped: number): string {
  const done = action === 'void' ? plural(changed, 'voto anulado', 'votos anulados') : plural(changed, 'voto restaurado', 'votos restaurados');
  return skipped > 0 ? `${done}, ${plural(skipped, 'omitido', 'omitidos')}` : done;
}
