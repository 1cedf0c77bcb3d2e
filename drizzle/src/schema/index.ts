export * from './profiles.ts';
export * from './auth.ts';
export * from './catalog.ts';
export * from './polls.ts';
export * from './votes.ts';
export * from './wall.ts';
export * from './analytics.ts';
export * from './media.ts';
