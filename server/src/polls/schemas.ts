// The public polls' query is the contracts' (contracts/src/api/polls.ts); og/ reads it too.
export { HomePollQuery } from '@tribuna/contracts/api/polls';
