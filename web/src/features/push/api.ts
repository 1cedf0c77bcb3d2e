import type { PushConfig, PushDevice, PushPreferences, PushSettings, PushSubscriptionInput } from '@tribuna/contracts/api/push';
import { callApi } from '../../lib/api';

export const fetchPushConfig = (signal?: AbortSignal): Promise<PushConfig> => callApi('pushConfig', { signal });

export const fetchPushSettings = (signal?: AbortSignal): Promise<PushSettings> => callApi('pushSettings', { signal });

export const sendPushSubscription = (body: PushSubscriptionInput): Promise<PushDevice> => callApi('subscribePush', { body });

export const removePushDevice = (deviceId: string): Promise<PushSettings> => callApi('removePushDevice', { params: { deviceId } });

export const savePushPreferences = (preferences: PushPreferences): Promise<PushPreferences> => callApi('updatePushPreferences', { body: preferences });
