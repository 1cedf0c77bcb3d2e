// Moved to lib/usePagedList.ts (the groups pages page their lists the same way).
export { usePagedList, type Page, type PagedList, type PagedState } from '../../lib/usePagedList';
