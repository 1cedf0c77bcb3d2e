import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';

// BullMQ queue and job names with their payloads. The worker refuses to start if a job
// name listed here has no handler, so adding a job here forces a handler to exist.

export const QUEUE_NAMES = { maintenance: 'maintenance', points: 'points', media: 'media', push: 'push' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2025-02-30 is refused). */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DAY_FORMAT.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

// The worker checks every payload against these schemas before its handler runs, and nothing
// checks them again: each schema carries every bound (formats registered here, once).
if (!FormatRegistry.Has('calendar-day')) FormatRegistry.Set('calendar-day', isCalendarDay);

const Day = Type.String({ format: 'calendar-day' });
const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

/** Days `reports.aggregate-recent-days` recomputes at most. */
export const MAX_RECENT_DAYS = 366;
/** Voters per `points.award-votes` job (a vote batch holds at most a few hundred); the schema's maxItems. */
export const MAX_AWARD_VOTES_PER_JOB = 1000;
/** Vote idempotency keys are kept this many hours at most before `votes.purge-requests` may take them. */
export const MAX_VOTE_REQUEST_RETENTION_HOURS = 24 * 365;
/** Ended sessions are kept this many days at most before `sessions.purge` may take them. */
export const MAX_SESSION_RETENTION_DAYS = 3650;
const Nothing = Type.Object({}, { additionalProperties: false });

/** Every job's payload, checked by the worker before its handler runs (a payload that fails fails the job for good). */
export const JOB_PAYLOADS = {
  /** Recompute the daily usage aggregates for one calendar day in SHOW_TIMEZONE (YYYY-MM-DD). */
  'reports.aggregate-day': Type.Object({ day: Day }),
  /**
   * Recompute the last `days` calendar days ending today in SHOW_TIMEZONE (1 = today only).
   * The days are computed when the job runs, so repeatable schedules can carry a fixed payload.
   */
  'reports.aggregate-recent-days': Type.Object({ days: Type.Integer({ minimum: 1, maximum: MAX_RECENT_DAYS }) }),
  /**
   * Vote points: a user earns the poll's points_per_vote at most once per poll per calendar day
   * (`day`, YYYY-MM-DD in SHOW_TIMEZONE, of the vote); reference `vote:<pollId>:<day>`.
   * Job id `vote-award.<userId>.<pollId>.<day>` so duplicates collapse.
   */
  'points.award-vote': Type.Object({ userId: Uuid, pollId: Uuid, day: Day }),
  /**
   * The vote awards of one committed batch of votes (the (user, poll) pairs voting for the first
   * time that day as far as the server knows), granted together in one transaction with the same
   * rule and references as `points.award-vote`: already granted ones are skipped.
   */
  'points.award-votes': Type.Object({ day: Day, voters: Type.Array(Type.Object({ userId: Uuid, pollId: Uuid }), { maxItems: MAX_AWARD_VOTES_PER_JOB }) }),
  /** The share's points_earned; reference `share:<pollId>:<shareDay>`. Job id `share-award.<shareId>`. */
  'points.award-share': Type.Object({ shareId: Uuid }),
  /**
   * Awards what was missed (votes and shares without their award): from where the last complete
   * sweep started (minus an overlap), or with `full` the whole last 3 days (the daily run).
   */
  'points.sweep': Type.Object({ full: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  /** 00:00 SHOW_TIMEZONE: tells connected clients (the cluster event `points.reset`) to refresh their available points. */
  'points.daily-reset': Nothing,
  /** Deletes sessions that expired or were revoked more than `olderThanDays` days ago. */
  'sessions.purge': Type.Object({ olderThanDays: Type.Integer({ minimum: 1, maximum: MAX_SESSION_RETENTION_DAYS }) }),
  /** Deletes vote idempotency keys (vote_requests) claimed more than `olderThanHours` hours ago. */
  'votes.purge-requests': Type.Object({ olderThanHours: Type.Integer({ minimum: 1, maximum: MAX_VOTE_REQUEST_RETENTION_HOURS }) }),
  /**
   * Deletes stored image files (MEDIA_DIR) no media row names, last written more than
   * `olderThanMinutes` ago: at least an hour, so an upload whose transaction is still running is never touched.
   */
  'media.gc': Type.Object({ olderThanMinutes: Type.Integer({ minimum: 60 }) }),
  /**
   * Transcodes the uploaded clip of video_uploads row `uploadId` (H.264/AAC MP4 ≤ 720p, a poster and
   * its ThumbHash), stores the files and the media row, and marks the upload 'transcoded' (the
   * cluster event `wall.video` then has a server publish the post). On its own queue: a clip takes
   * seconds to minutes and must not hold up the maintenance jobs.
   */
  'media.transcode-video': Type.Object({ uploadId: Uuid }),
  /** Recomputes every day's aggregates from the first vote, view or profile to today (the reports screen's button). */
  'reports.recompute-all': Nothing,
  /**
   * Scans the votes for shared devices and multi-device users into the abuse_scans row `scanId`
   * (created 'queued' by whoever asked), publishing its progress; a scheduled run passes no id
   * and creates its own row.
   */
  'abuse.scan': Type.Object({ scanId: Type.Optional(Uuid) }),
  /**
   * Web push (issue 31): sends push_broadcasts row `broadcastId` to every opted-in device. Lists
   * the devices into push_messages once (idempotent: a retried or taken-over run lists nobody twice
   * and never sends a message recorded as sent), then sends the pending ones in batches with bounded
   * concurrency, keeping the row's progress.
   */
  'push.broadcast': Type.Object({ broadcastId: Uuid }),
  /**
   * A fan's own pushes: what happened since their last push (notifications of the kinds they opted
   * into, new posts in their groups) as one push per device, at most one per
   * PUSH_LIMITS.userWindowSeconds (job id `push-user.<userId>.<window>`, delayed to the window's
   * end, so a burst collapses into one).
   */
  'push.user': Type.Object({ userId: Uuid }),
  /** Sends the messages due: retries after 429/5xx, and messages a dead worker claimed and never confirmed. */
  'push.deliver': Nothing,
  /** Every minute: an active poll ending within PUSH_LIMITS.closingLeadMinutes gets its 'Cierra pronto' broadcast, once. */
  'push.closing-soon': Nothing,
  /** Every minute: fans with pushes due whose `push.user` job was lost (Redis down at the time) get it. */
  'push.sweep': Nothing,
} satisfies Record<string, TSchema>;

export type JobPayloads = { [K in keyof typeof JOB_PAYLOADS]: Static<(typeof JOB_PAYLOADS)[K]> };

export type JobName = keyof JobPayloads;

/** Which queue each job runs on. */
export const JOB_QUEUES: { [K in JobName]: QueueName } = {
  'reports.aggregate-day': QUEUE_NAMES.maintenance,
  'reports.aggregate-recent-days': QUEUE_NAMES.maintenance,
  'points.award-vote': QUEUE_NAMES.points,
  'points.award-votes': QUEUE_NAMES.points,
  'points.award-share': QUEUE_NAMES.points,
  'points.sweep': QUEUE_NAMES.points,
  'points.daily-reset': QUEUE_NAMES.points,
  'sessions.purge': QUEUE_NAMES.maintenance,
  'votes.purge-requests': QUEUE_NAMES.maintenance,
  'media.gc': QUEUE_NAMES.maintenance,
  'media.transcode-video': QUEUE_NAMES.media,
  'reports.recompute-all': QUEUE_NAMES.maintenance,
  'abuse.scan': QUEUE_NAMES.maintenance,
  'push.broadcast': QUEUE_NAMES.push,
  'push.user': QUEUE_NAMES.push,
  'push.deliver': QUEUE_NAMES.push,
  'push.closing-soon': QUEUE_NAMES.push,
  'push.sweep': QUEUE_NAMES.push,
};

/** Deterministic BullMQ job ids (BullMQ refuses ':' in custom ids, hence the dots). */
export const pointsJobIds = {
  awardVote: (p: JobPayloads['points.award-vote']) => `vote-award.${p.userId}.${p.pollId}.${p.day}`,
  awardShare: (p: JobPayloads['points.award-share']) => `share-award.${p.shareId}`,
};

/** Deterministic push job ids: one broadcast job per broadcast; one `push.user` per fan and window. */
export const pushJobIds = {
  broadcast: (p: JobPayloads['push.broadcast']) => `push-broadcast.${p.broadcastId}`,
  user: (userId: string, windowIndex: number) => `push-user.${userId}.${windowIndex}`,
};

export const JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];
