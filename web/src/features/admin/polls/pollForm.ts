import type { AdminPollOption, AdminPollView, CreatePollInput, PollOptionInput, UpdatePollInput } from '@tribuna/contracts/api/admin/polls';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { PollStatus } from '@tribuna/contracts/api/pollStatus';
import { plural } from '../../../lib/plural';

export type OptionType = AdminPollView['optionType'];
export type VoteMode = AdminPollView['voteMode'];

/** The list's status labels (spec §4: Borrador, Activa, Cerrada). */
export const POLL_STATUS_LABELS: Record<PollStatus, string> = { draft: 'Borrador', active: 'Activa', closed: 'Cerrada' };

export interface CustomOptionValue {
  /** React key (stable while typing). */
  key: number;
  /** The existing option's id (kept on save, and its votes with it); absent for a new one. */
  id?: string;
  text: string;
}

export interface PollFormValues {
  title: string;
  description: string;
  seasonId: string;
  optionType: OptionType;
  /** Chosen contestants, in ballot order. */
  contestantIds: string[];
  customOptions: CustomOptionValue[];
  countdown: boolean;
  /** Closing date (YYYY-MM-DD) and time (HH:mm), local. */
  endDate: string;
  endTime: string;
  voteMode: VoteMode;
  totalPoints: string;
  dailyReset: boolean;
  status: 'draft' | 'active';
}

export type PollFormErrors = Partial<Record<'title' | 'seasonId' | 'options' | 'endDate' | 'totalPoints', string>>;

let nextKey = 0;
export const blankOption = (): CustomOptionValue => ({ key: ++nextKey, text: '' });

export function emptyPoll(seasonId = ''): PollFormValues {
  return {
    title: '',
    description: '',
    seasonId,
    optionType: 'contestants',
    contestantIds: [],
    customOptions: [blankOption(), blankOption()],
    countdown: false,
    endDate: '',
    endTime: '',
    voteMode: 'single',
    totalPoints: String(ADMIN_LIMITS.defaultTotalPoints),
    dailyReset: true,
    status: 'active',
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the local date and time inputs show it. */
export function localParts(iso: string): { date: string; time: string } {
  const d = new Date(iso);
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
}

/** The local date and time inputs as an ISO instant; null when incomplete or invalid. */
export function isoOf(date: string, time: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const d = new Date(`${date}T${time}`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const byOrder = (a: AdminPollOption, b: AdminPollOption) => a.order - b.order;

export function valuesOfPoll(poll: AdminPollView): PollFormValues {
  const options = [...poll.options].sort(byOrder);
  const end = poll.endDate ? localParts(poll.endDate) : null;
  return {
    title: poll.title,
    description: poll.description ?? '',
    seasonId: poll.seasonId,
    optionType: poll.optionType,
    contestantIds: options.flatMap((o) => (o.contestantId ? [o.contestantId] : [])),
    customOptions:
      poll.optionType === 'custom'
        ? [
            ...options.map((o) => ({ key: ++nextKey, id: o.id, text: o.text ?? o.label })),
            ...Array.from({ length: Math.max(0, 2 - options.length) }, blankOption),
          ]
        : [blankOption(), blankOption()],
    countdown: end !== null,
    endDate: end?.date ?? '',
    endTime: end?.time ?? '',
    voteMode: poll.voteMode,
    totalPoints: String(poll.voteMode === 'points' ? poll.maxPointsPerUser : ADMIN_LIMITS.defaultTotalPoints),
    dailyReset: poll.dailyReset,
    status: poll.status === 'draft' ? 'draft' : 'active',
  };
}

/** The form's checks (spec §5 Poll form), one message per failing field. */
export function validatePoll(values: PollFormValues): PollFormErrors {
  const errors: PollFormErrors = {};
  if (!values.title.trim()) errors.title = ADMIN_MESSAGES.pollTitleRequired;
  if (!values.seasonId) errors.seasonId = ADMIN_MESSAGES.pollSeasonRequired;
  if (values.optionType === 'contestants') {
    if (values.contestantIds.length < ADMIN_LIMITS.minOptions) errors.options = ADMIN_MESSAGES.minContestants;
  } else if (values.customOptions.filter((o) => o.text.trim()).length < ADMIN_LIMITS.minOptions) {
    errors.options = ADMIN_MESSAGES.minOptions;
  }
  if (values.countdown && !isoOf(values.endDate, values.endTime)) errors.endDate = ADMIN_MESSAGES.endDateRequired;
  if (values.voteMode === 'points') {
    const total = values.totalPoints.trim();
    if (!/^\d+$/.test(total) || Number(total) < ADMIN_LIMITS.minTotalPoints) errors.totalPoints = ADMIN_MESSAGES.totalPointsMin;
  }
  return errors;
}

/** The options to send: contestants in their chosen order or the non-blank texts; existing ones keep their id. */
export function optionsInput(values: PollFormValues, original: AdminPollView | null): PollOptionInput[] {
  if (values.optionType === 'contestants') {
    const idOf = new Map((original?.options ?? []).flatMap((o) => (o.contestantId ? [[o.contestantId, o.id] as const] : [])));
    return values.contestantIds.map((contestantId) => {
      const id = idOf.get(contestantId);
      return id ? { id, contestantId } : { contestantId };
    });
  }
  return values.customOptions.filter((o) => o.text.trim()).map((o) => (o.id ? { id: o.id, text: o.text.trim() } : { text: o.text.trim() }));
}

function commonInput(values: PollFormValues, original: AdminPollView | null) {
  const points = values.voteMode === 'points' ? { maxPointsPerUser: Number(values.totalPoints.trim()), dailyReset: values.dailyReset } : {};
  return {
    title: values.title.trim(),
    description: values.description.trim() || null,
    endDate: values.countdown ? isoOf(values.endDate, values.endTime) : null,
    ...points,
    options: optionsInput(values, original),
  };
}

export function createInput(values: PollFormValues): CreatePollInput {
  return { ...commonInput(values, null), seasonId: values.seasonId, voteMode: values.voteMode, optionType: values.optionType, status: values.status };
}

export function updateInput(values: PollFormValues, original: AdminPollView): UpdatePollInput {
  return commonInput(values, original);
}

/** The poll's options that the form leaves out and that have votes (what the removal affects). */
export function removedWithVotes(values: PollFormValues, original: AdminPollView | null): AdminPollOption[] {
  if (!original) return [];
  const kept = new Set(optionsInput(values, original).flatMap((o) => (o.id ? [o.id] : [])));
  return original.options.filter((o) => o.voteCount > 0 && !kept.has(o.id)).sort(byOrder);
}

/** 'Quitar esta opción afectará 12 votos: saldrán de los resultados y se conservarán en el historial de los votantes como "Opción eliminada".' */
export function removalWarning(removed: readonly AdminPollOption[]): string {
  const votes = removed.reduce((sum, o) => sum + o.voteCount, 0);
  const what = removed.length === 1 ? 'esta opción' : `estas ${removed.length} opciones`;
  return `Quitar ${what} afectará ${plural(votes, 'voto', 'votos')}: saldrán de los resultados y se conservarán en el historial de los votantes como "${ADMIN_MESSAGES.removedOption}".`;
}
