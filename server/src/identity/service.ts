// The identity domain's face to the others: what account deletion (profiles/account.ts) removes.
export { deleteAccount } from './accounts/repository.ts';
export { deleteUserFactors } from './factors/repository.ts';
