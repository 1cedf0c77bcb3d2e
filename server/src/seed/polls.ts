import { randomUUID } from 'node:crypto';
import type { DemoData, PlanContext } from './plan.ts';
import type { PollStatus } from '@tribuna/contracts/api/polls';

export type PollKey = 'featured' | 'points' | 'closed' | 'custom' | 'draft';

export interface PlannedPoll {
  key: PollKey;
  id: string;
  title: string;
  status: PollStatus;
  /** Votes are placed between these instants. */
  votingFrom: Date;
  votingUntil: Date;
  maxPointsPerUser: number;
  bonusForSharing: number;
  /** Option ids by contestant slug or custom text. */
  options: Map<string, string>;
}

interface PollSpec {
  key: PollKey;
  title: string;
  description: string | null;
  status: PlannedPoll['status'];
  featured?: boolean;
  mode: 'manual' | 'countdown';
  createdHoursAgo: number;
  startHoursAgo: number;
  /** Closing date and time; null for none. */
  endDate: Date | null;
  contestants?: string[];
  texts?: string[];
  maxPointsPerUser: number;
  dailyReset: boolean;
  bonusForSharing: number;
}

const ACTIVE_CONTESTANTS = [
  'ximena-valdes',
  'rodrigo-castaneda',
  'paola-montiel',
  'emiliano-rosas',
  'daniela-quintero',
  'joaquin-arriaga',
  'renata-solis',
  'mateo-ibarra',
  'valentina-ochoa',
];

function specs(ctx: PlanContext): PollSpec[] {
  // The featured poll closes on the hour about three days from now, so the countdown has days left.
  const hour = 3_600_000;
  const featuredCloses = new Date(Math.ceil(ctx.clock.hoursAhead(72).getTime() / hour) * hour);
  return [
    {
      key: 'featured',
      title: '¿Quién debe salvarse de la eliminación esta semana?',
      description:
        'Cuatro habitantes están nominados. Vota por quien quieres que se quede en la casa: un voto por persona, y puedes cambiarlo hasta el cierre.',
      status: 'active',
      featured: true,
      mode: 'countdown',
      createdHoursAgo: 50,
      startHoursAgo: 48,
      endDate: featuredCloses,
      contestants: ['ximena-valdes', 'rodrigo-castaneda', 'paola-montiel', 'emiliano-rosas'],
      maxPointsPerUser: 1,
      dailyReset: false,
      bonusForSharing: 5,
    },
    {
      key: 'points',
      title: '¡Reparte tus 10 puntos entre tus favoritos!',
      description: 'Cada día tienes 10 puntos para repartir como quieras entre los habitantes de la casa. Los puntos se renuevan a medianoche.',
      status: 'active',
      mode: 'manual',
      createdHoursAgo: 24 * 5,
      startHoursAgo: 24 * 5,
      endDate: null,
      contestants: ACTIVE_CONTESTANTS,
      maxPointsPerUser: 10,
      dailyReset: true,
      bonusForSharing: 5,
    },
    {
      key: 'custom',
      title: '¿Cuál fue la mejor prueba de la semana?',
      description: 'Elige la prueba que más disfrutaste ver.',
      status: 'active',
      mode: 'manual',
      createdHoursAgo: 24 * 3,
      startHoursAgo: 24 * 3,
      endDate: null,
      texts: ['La carrera de obstáculos', 'El reto de cocina', 'La trivia musical', 'El karaoke en parejas'],
      maxPointsPerUser: 1,
      dailyReset: false,
      bonusForSharing: 5,
    },
    {
      key: 'closed',
      title: '¿Quién fue el mejor líder de la semana 3?',
      description: 'Votación cerrada. ¡Gracias por participar!',
      status: 'closed',
      mode: 'countdown',
      createdHoursAgo: 24 * 16,
      startHoursAgo: 24 * 16,
      endDate: ctx.clock.hoursAgo(24 * 9),
      contestants: ['camila-ferrer', 'joaquin-arriaga', 'renata-solis', 'mateo-ibarra'],
      maxPointsPerUser: 1,
      dailyReset: false,
      bonusForSharing: 5,
    },
    {
      key: 'draft',
      title: 'Gran final: ¿quién ganará La Casa de las Estrellas?',
      description: 'Borrador: se activará la noche de la final.',
      status: 'draft',
      mode: 'manual',
      createdHoursAgo: 20,
      startHoursAgo: 0,
      endDate: null,
      contestants: ['ximena-valdes', 'renata-solis', 'mateo-ibarra', 'joaquin-arriaga'],
      maxPointsPerUser: 1,
      dailyReset: false,
      bonusForSharing: 5,
    },
  ];
}

export function planPolls(ctx: PlanContext) {
  const polls: DemoData['polls'] = [];
  const pollOptions: DemoData['pollOptions'] = [];
  const pollPointsConfig: DemoData['pollPointsConfig'] = [];
  const planned: PlannedPoll[] = [];

  for (const spec of specs(ctx)) {
    const id = randomUUID();
    const createdAt = ctx.clock.hoursAgo(spec.createdHoursAgo);
    const startDate = spec.status === 'draft' ? null : ctx.clock.hoursAgo(spec.startHoursAgo);
    const endDate = spec.endDate;
    polls.push({
      id,
      title: spec.title,
      description: spec.description,
      seasonId: ctx.seasonId,
      pollMode: spec.mode,
      startDate,
      endDate,
      showResults: true,
      status: spec.status,
      isFeatured: spec.featured ?? false,
      createdAt,
      updatedAt: spec.status === 'closed' && endDate ? endDate : createdAt,
    });

    const options = new Map<string, string>();
    (spec.contestants ?? []).forEach((slug, order) => {
      const optionId = randomUUID();
      options.set(slug, optionId);
      pollOptions.push({ id: optionId, pollId: id, contestantId: ctx.contestant(slug).id, text: null, order });
    });
    (spec.texts ?? []).forEach((text, order) => {
      const optionId = randomUUID();
      options.set(text, optionId);
      pollOptions.push({ id: optionId, pollId: id, contestantId: null, text, order });
    });

    pollPointsConfig.push({
      pollId: id,
      pointsPerVote: 1,
      maxPointsPerUser: spec.maxPointsPerUser,
      dailyReset: spec.dailyReset,
      bonusForSharing: spec.bonusForSharing,
    });
    planned.push({
      key: spec.key,
      id,
      title: spec.title,
      status: spec.status,
      votingFrom: startDate ?? createdAt,
      votingUntil: endDate && endDate < ctx.clock.now ? endDate : ctx.clock.hoursAgo(0.25),
      maxPointsPerUser: spec.maxPointsPerUser,
      bonusForSharing: spec.bonusForSharing,
      options,
    });
  }
  return { polls, pollOptions, pollPointsConfig, planned };
}
