import type { HomePollResponse } from '@tribuna/contracts';
import { apiGet } from '../../lib/api';

/** The featured poll (else the newest active one) with its results; poll is null when none is active. */
export const fetchHomePoll = (signal?: AbortSignal) => apiGet<HomePollResponse>('/api/polls/home', { signal });
