// The list states moved to components/ListStates.tsx (the groups pages use them too).
export { badgeClass, LoadMoreButton, TabEmpty, TabError, TabSkeleton } from '../../components/ListStates';
