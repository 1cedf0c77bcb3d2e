/**
 * Every rate limit of the server, in one table. Every route of a domain (registered after the
 * rate-limit plugin: /api, /auth, /ws and the link-preview page `/`) names its entry in its options
 * (`config: { rateLimit: 'votes.cast' }`) or says `rateLimit: false` with the reason; the server
 * refuses to start otherwise (see plugins/rateLimit.ts). Only the static files (web/dist, /media)
 * are served without one: they cost a file read, never a query.
 *
 * A limit is a token bucket: `max` requests at once, refilling at `max / windowSeconds` per
 * second (so `{ max: 30, windowSeconds: 60 }` is a burst of 30, then one every 2 s). Beyond it the
 * answer is 429 with Retry-After and TOO_MANY_REQUESTS_MESSAGE, before the body is even parsed;
 * or, for a rule with `whenLimited: 'degrade'`, the request goes on flagged (`request.rateLimited`)
 * and its route answers a cheaper version of the page (the link preview: the plain SPA page).
 *
 * Who is counted:
 * - a signed-in caller (a sign-in still owing its second factor too) by user (`perUser`, their
 *   main limit) and by address (`perSignedInAddress`, else `perAddress`): the address limit of
 *   signed-in callers is sized for a crowd of fans behind one mobile carrier address (CGNAT);
 * - a visitor by address (`perAddress`), the only thing that tells visitors apart.
 * IPv6 addresses count by their /64, which one subscriber usually holds whole.
 *
 * Stores:
 * - 'redis': one bucket shared by every server instance, one Redis round trip per request. For the
 *   low-rate sensitive routes (sign-in, second factor, shares, admin writes). While Redis is
 *   unreachable or slow (>250 ms) each instance falls back to its own buckets.
 * - 'local': buckets in this instance's memory, a Map lookup and some arithmetic per request, for
 *   the hot paths (votes, poll reads, page views). PER INSTANCE: with N instances behind the load
 *   balancer a caller may get up to N times these numbers, which is fine for limits meant to stop
 *   scripts, not to count exactly.
 */

export interface Rate {
  /** Requests allowed at once (the burst). */
  max: number;
  /** Seconds to earn `max` requests back. */
  windowSeconds: number;
}

export interface RateLimitRule {
  store: 'redis' | 'local';
  /** Signed-in callers, per user. */
  perUser?: Rate;
  /** Signed-in callers, per address; when absent they count against `perAddress`. */
  perSignedInAddress?: Rate;
  /** Visitors per address (and signed-in callers when `perSignedInAddress` is absent). */
  perAddress?: Rate;
  /**
   * Beyond the limit: 'refuse' (the default) answers 429; 'degrade' lets the request through with
   * `request.rateLimited` set, for a route whose cheaper answer is as good for its caller.
   */
  whenLimited?: 'refuse' | 'degrade';
  /**
   * The entry that counts a signed-in caller whose account is new (created less than
   * MODERATION_LIMITS.trustedAccountAgeMs ago, issue 29) instead of this one: brand-new accounts,
   * the spammers' and trolls' throwaways, write under tighter limits. Checked at start (an unknown
   * name stops the server). A test replacing this entry without it turns the tighter one off.
   */
  newAccounts?: string;
}

/** A crowd of fans behind one carrier address, each acting at a fan's pace, must pass these. */
const CROWD = 50;

export const RATE_LIMITS = {
  // --- Sign-in ---------------------------------------------------------------------------------
  // Starting a sign-in only redirects to Google, but each start sets flow cookies and leads to a
  // callback: a person starts one, maybe retries twice; a few people behind one address never
  // start 30 a minute, a script cycling sign-ins does.
  'auth.google-start': { store: 'redis', perAddress: { max: 30, windowSeconds: 60 } },
  // One callback per start (and each costs a token exchange with Google and database writes).
  'auth.google-callback': { store: 'redis', perAddress: { max: 30, windowSeconds: 60 } },
  // Development sign-in (DEV_LOGIN): a developer switches users a few times a minute.
  'auth.dev-login': { store: 'redis', perAddress: { max: 10, windowSeconds: 60 } },
  // The demo users list, loaded once per visit of /login.
  'auth.dev-users': { store: 'local', perAddress: { max: 60, windowSeconds: 60 } },
  // Asked on every page load of the SPA: a burst for a crowd opening the site, 5/s after that.
  'auth.session': {
    store: 'local',
    perUser: { max: 120, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 60 },
    perAddress: { max: 300, windowSeconds: 60 },
  },
  // Signing out is a click; the limit only bounds a flood of session revocations.
  'auth.logout': {
    store: 'local',
    perUser: { max: 30, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 30, windowSeconds: 60 },
    perAddress: { max: 60, windowSeconds: 60 },
  },

  // --- Second factor (on top of the failed-code counter of factors/attempts.ts) -----------------
  // Listing factors: the security page loads it once.
  'factors.list': { store: 'local', perUser: { max: 60, windowSeconds: 60 }, perAddress: { max: CROWD * 60, windowSeconds: 60 } },
  // Enrolling writes a new secret; someone fumbling with the QR code re-enrols a few times.
  'factors.enrol': { store: 'redis', perUser: { max: 10, windowSeconds: 600 }, perAddress: { max: CROWD * 10, windowSeconds: 600 } },
  // Each code typed opens a challenge first (web: verifyFactorCode).
  'factors.challenge': { store: 'redis', perUser: { max: 20, windowSeconds: 60 }, perAddress: { max: CROWD * 20, windowSeconds: 60 } },
  // A person types a code in seconds and rarely gets more than a few wrong: 10 a minute is plenty;
  // a script guessing codes across many challenges is stopped here even before 5 wrong codes.
  'factors.verify': { store: 'redis', perUser: { max: 10, windowSeconds: 60 }, perAddress: { max: CROWD * 10, windowSeconds: 60 } },
  // Removing a factor needs a current code: the same budget as verifying one.
  'factors.unenrol': { store: 'redis', perUser: { max: 10, windowSeconds: 60 }, perAddress: { max: CROWD * 10, windowSeconds: 60 } },

  // --- Own account ----------------------------------------------------------------------------
  // The profile, asked on page loads and after changes.
  'account.read': { store: 'local', perUser: { max: 120, windowSeconds: 60 }, perAddress: { max: CROWD * 120, windowSeconds: 60 } },
  // Deleting the own account happens once; a few tries allow for a mistyped confirmation.
  'account.delete': { store: 'redis', perUser: { max: 5, windowSeconds: 3600 }, perAddress: { max: CROWD * 5, windowSeconds: 3600 } },
  // Saving the edit profile dialog: a person saves a few times while getting it right.
  'account.update': { store: 'redis', perUser: { max: 20, windowSeconds: 60 }, perAddress: { max: CROWD * 20, windowSeconds: 60 } },
  // Avatar and banner uploads (each re-encoded): a couple per save, a few tries at most.
  'account.upload': { store: 'redis', perUser: { max: 10, windowSeconds: 60 }, perAddress: { max: CROWD * 10, windowSeconds: 60 } },

  // --- Profiles ----------------------------------------------------------------------------------
  // A profile's header, counters and tabs: opened from an author's name, each tab a request, and
  // 'Cargar más' pages; visitors see public profiles too.
  'profiles.read': {
    store: 'local',
    perUser: { max: 60, windowSeconds: 20 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 20 },
    perAddress: { max: 60, windowSeconds: 20 },
  },

  // --- Polls and votes --------------------------------------------------------------------------
  // A fan taps Votar a few times a second at most and keeps it up for seconds, not minutes: a
  // burst of 30 refilling 3/s never stops them, while a script gets 3 votes/s. Per address: with
  // CROWD fans behind one address voting once a second, 300/s with a burst of 3000 is far off.
  'votes.cast': { store: 'local', perUser: { max: 30, windowSeconds: 10 }, perAddress: { max: 3000, windowSeconds: 10 } },
  // The user's votes and available points: loaded with the poll and after each vote.
  'votes.mine': { store: 'local', perUser: { max: 60, windowSeconds: 10 }, perAddress: { max: 3000, windowSeconds: 10 } },
  // Poll pages and the home poll. Visitors: a burst of 120 (a crowd opening the site at once),
  // then 6/s per address; signed-in fans count per user, with a crowd-sized address backstop.
  'polls.read': {
    store: 'local',
    perUser: { max: 120, windowSeconds: 20 },
    perSignedInAddress: { max: CROWD * 120, windowSeconds: 20 },
    perAddress: { max: 120, windowSeconds: 20 },
  },
  // Results: loaded with the poll and after each live reconnect (a server restart reconnects
  // everyone at once), otherwise they come over the websocket.
  'polls.results': {
    store: 'local',
    perUser: { max: 120, windowSeconds: 20 },
    perSignedInAddress: { max: CROWD * 120, windowSeconds: 20 },
    perAddress: { max: 120, windowSeconds: 20 },
  },
  // Link previews of shared polls (`/?encuesta=<id>`, og/routes.ts), read from the poll cache and
  // the live totals. Crawlers (WhatsApp, Facebook, X) come in bursts from few addresses when a link
  // spreads, and fans open the same URL: beyond the limit the page is served without the poll's
  // tags (the static SPA page, no poll lookup), never a 429 that would leave a chat without any
  // preview or a fan without the app.
  'og.preview': {
    store: 'local',
    whenLimited: 'degrade',
    perUser: { max: 60, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 60 },
    perAddress: { max: 120, windowSeconds: 60 },
  },
  // A share is rewarded once per poll per day; nobody shares more than a few polls a minute.
  'shares.create': { store: 'redis', perUser: { max: 10, windowSeconds: 60 }, perAddress: { max: CROWD * 10, windowSeconds: 60 } },

  // --- Wall -------------------------------------------------------------------------------------
  // Feed pages, posts and comment lists: a reader scrolls a page every few seconds, and a reconnect
  // refetches the posts on screen at once (a burst of 60); visitors see the public wall too.
  'wall.read': {
    store: 'local',
    perUser: { max: 60, windowSeconds: 20 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 20 },
    perAddress: { max: 60, windowSeconds: 20 },
  },
  // Publishing a post (up to 10 images, each re-encoded): a person posts a few times a minute at most.
  'wall.post-create': {
    store: 'redis',
    perUser: { max: 5, windowSeconds: 60 },
    perAddress: { max: CROWD * 5, windowSeconds: 60 },
    newAccounts: 'wall.post-create.new-account',
  },
  // The same for an account younger than a day (issue 29): a newcomer's hello and a couple more at
  // once, then one post every 200 s instead of every 12 s: a throwaway account cannot flood the wall.
  'wall.post-create.new-account': { store: 'redis', perUser: { max: 3, windowSeconds: 600 }, perAddress: { max: CROWD * 5, windowSeconds: 60 } },
  // Video posts (a clip of up to 50 MB, probed here and transcoded by the worker, minutes of CPU): a
  // person shares a few clips in a sitting, never dozens.
  'wall.video-create': { store: 'redis', perUser: { max: 3, windowSeconds: 600 }, perAddress: { max: CROWD * 3, windowSeconds: 600 } },
  // Comments and replies (one image at most): a lively thread, not a script.
  'wall.comment-create': {
    store: 'redis',
    perUser: { max: 20, windowSeconds: 60 },
    perAddress: { max: CROWD * 20, windowSeconds: 60 },
    newAccounts: 'wall.comment-create.new-account',
  },
  // The same for an account younger than a day (issue 29): 12 at once, then one every 30 s instead
  // of every 3 s.
  'wall.comment-create.new-account': {
    store: 'redis',
    perUser: { max: 12, windowSeconds: 360 },
    perAddress: { max: CROWD * 20, windowSeconds: 60 },
  },
  // Edits and deletions of one's posts and comments (and an admin's moderation).
  'wall.edit': { store: 'redis', perUser: { max: 30, windowSeconds: 60 }, perAddress: { max: CROWD * 30, windowSeconds: 60 } },
  // Reaction taps: quick, and a fan changes their mind; 2/s sustained after a burst of 30.
  'wall.react': { store: 'local', perUser: { max: 30, windowSeconds: 15 }, perAddress: { max: CROWD * 30, windowSeconds: 15 } },

  // --- Groups and follows (issue 28) -------------------------------------------------------------
  // The directory, a group's page, its members and requests: browsing, like the wall.
  'groups.read': {
    store: 'local',
    perUser: { max: 60, windowSeconds: 20 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 20 },
    perAddress: { max: 60, windowSeconds: 20 },
  },
  // Creating a group (the service also allows 3 a day per fan): a burst guard.
  'groups.create': { store: 'redis', perUser: { max: 5, windowSeconds: 600 }, perAddress: { max: CROWD * 5, windowSeconds: 600 } },
  // Joining, leaving, editing, moderating a group: a group admin clears a queue of requests at a click each.
  'groups.write': { store: 'redis', perUser: { max: 60, windowSeconds: 60 }, perAddress: { max: CROWD * 60, windowSeconds: 60 } },
  // Following and unfollowing: a fan follows a handful of people from a list, not thousands by script.
  'follows.write': { store: 'redis', perUser: { max: 30, windowSeconds: 60 }, perAddress: { max: CROWD * 30, windowSeconds: 60 } },
  // Muting, blocking and their undoing (issue 29): a fan silences a troll or clears their list from
  // the settings at a tap each, never hundreds by script.
  'safety.write': { store: 'redis', perUser: { max: 30, windowSeconds: 60 }, perAddress: { max: CROWD * 30, windowSeconds: 60 } },

  // --- Moderation (issue 29) ---------------------------------------------------------------------
  // Reporting a post, comment or profile: a fan reports what offends them, a few a minute at most
  // during a heated episode; a flood of reports is a brigade, and would only fill the queue.
  'moderation.report': { store: 'redis', perUser: { max: 10, windowSeconds: 60 }, perAddress: { max: CROWD * 10, windowSeconds: 60 } },
  // The queue's pages and the badge count (site admins and moderators): a screen or two, reloads.
  'moderation.read': { store: 'local', perUser: { max: 120, windowSeconds: 60 }, perAddress: { max: 600, windowSeconds: 60 } },
  // Moderation actions: a moderator clears the queue a click (and a confirmation) at a time.
  'moderation.act': { store: 'redis', perUser: { max: 60, windowSeconds: 60 }, perAddress: { max: 300, windowSeconds: 60 } },

  // --- Notifications ----------------------------------------------------------------------------
  // The badge count (page loads, reconnects) and the list's pages: a reader scrolls, tabs come back.
  'notifications.read': { store: 'local', perUser: { max: 120, windowSeconds: 60 }, perAddress: { max: CROWD * 120, windowSeconds: 60 } },
  // Marking read: once per visit of the list (and per page loaded there).
  'notifications.mark-read': { store: 'local', perUser: { max: 60, windowSeconds: 60 }, perAddress: { max: CROWD * 60, windowSeconds: 60 } },

  // --- Web push (issue 31) ------------------------------------------------------------------------
  // The VAPID key (visitors too: the settings and the prompt load it) and a fan's devices and
  // preferences: once per settings screen or prompt.
  'push.read': {
    store: 'local',
    perUser: { max: 60, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 60 },
    perAddress: { max: 120, windowSeconds: 60 },
  },
  // Subscribing a device (and the browser's resubscriptions on rotation), removing one, saving the
  // preferences: a few taps in the settings; each subscription resolves its endpoint's name.
  'push.write': { store: 'redis', perUser: { max: 30, windowSeconds: 60 }, perAddress: { max: CROWD * 30, windowSeconds: 60 } },

  // --- Analytics, site, live --------------------------------------------------------------------
  // One beacon per page shown: 2/s per visitor address (a refused beacon only loses a count;
  // sendBeacon ignores the answer); signed-in fans by user, 1/s.
  'page-views.record': {
    store: 'local',
    perUser: { max: 60, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 60, windowSeconds: 60 },
    perAddress: { max: 120, windowSeconds: 60 },
  },
  // Public settings, once per page load.
  'site.read': { store: 'local', perSignedInAddress: { max: CROWD * 60, windowSeconds: 60 }, perAddress: { max: 300, windowSeconds: 60 } },
  // Websocket upgrade attempts (the number of open sockets is capped separately): one per tab and
  // reconnect; a restart reconnects a crowd at once, hence the burst.
  'live.connect': {
    store: 'local',
    perUser: { max: 30, windowSeconds: 60 },
    perSignedInAddress: { max: CROWD * 30, windowSeconds: 60 },
    perAddress: { max: 60, windowSeconds: 30 },
  },

  // --- Back-office ------------------------------------------------------------------------------
  // Back-office screens: each loads a list or two, and the dashboard refreshes; a few admins.
  'admin.read': { store: 'local', perUser: { max: 120, windowSeconds: 60 }, perAddress: { max: 600, windowSeconds: 60 } },
  // Photo uploads of contestants (each re-encoded by the media pipeline).
  'admin.upload': { store: 'redis', perUser: { max: 30, windowSeconds: 60 }, perAddress: { max: 150, windowSeconds: 60 } },
  // Admin writes (catalogue, polls, suspensions): an admin clicks through a list, not thousands a minute.
  'admin.write': { store: 'redis', perUser: { max: 60, windowSeconds: 60 }, perAddress: { max: 300, windowSeconds: 60 } },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;
export type RateLimitTable = Record<RateLimitName, RateLimitRule>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's entry in RATE_LIMITS, or false (say why next to it). Required for every route
     * registered after the rate-limit plugin (every domain's: /api, /auth, /ws and `/`).
     */
    rateLimit?: RateLimitName | false;
  }
  interface FastifyRequest {
    /** Set on a route whose limit degrades (`whenLimited: 'degrade'`) when the caller is beyond it. */
    rateLimited?: boolean;
  }
}
