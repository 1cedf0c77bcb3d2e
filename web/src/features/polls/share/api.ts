import type { SharePlatform } from '@tribuna/contracts/api/shares';
import { callApi } from '../../../lib/api';

/** Records a share by the signed-in user: once per poll per day it earns the poll's bonus (409 after that). */
export const recordShare = (pollId: string, platform: SharePlatform) => callApi('share', { params: { pollId }, body: { platform } });
