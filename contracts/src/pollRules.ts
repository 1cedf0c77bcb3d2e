// Poll rules the server and the web app both apply. Dependency-free (imported by the web bundle).

/** Voters listed per option (HTTP results, and the live list the web app keeps). */
export const VOTERS_PER_OPTION = 100;

/** A poll with more than one point per user is voted by spreading points; otherwise one choice. */
export const isPointsMode = (config: { maxPointsPerUser: number }): boolean => config.maxPointsPerUser > 1;
