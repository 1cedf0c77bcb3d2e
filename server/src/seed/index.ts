export { DEMO_ADMIN_USERNAME, DEMO_MODERATOR_USERNAME, seedIfEmpty, type SeedLogger } from './seed.ts';
