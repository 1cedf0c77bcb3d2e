import { useEffect, useId, useRef, useState } from 'react';
import type { PushConfig, PushDevice, PushPreferences, PushSettings as PushSettingsData } from '@tribuna/contracts/api/push';
import { PUSH_KINDS, PUSH_KIND_DEFAULTS, PUSH_KIND_HINTS, PUSH_KIND_LABELS, PUSH_TEXTS, type PushKind } from '@tribuna/contracts/pushRules';
import { TabError } from '../../components/ListStates';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useQuery } from '../../lib/useQuery';
import { fetchPushConfig, fetchPushSettings, removePushDevice, savePushPreferences } from './api';
import { currentSubscription, enableThisDevice, notificationPermission, pushSupport, unsubscribeThisDevice } from './browserPush';
import { recordedDeviceId, storedDeviceId, storeDeviceId } from './pushState';

/** The server runs without VAPID keys (production without configuration): nothing to subscribe to. */
export const PUSH_OFF_TEXT = 'Las notificaciones push no están disponibles en este momento.';

type Loaded = PushSettingsData & { config: PushConfig };

/** The two answers as the card uses them (every kind present: a kind added later shows its default). */
function loaded([settings, config]: [PushSettingsData, PushConfig]): Loaded {
  return {
    devices: Array.isArray(settings.devices) ? settings.devices : [],
    preferences: { ...PUSH_KIND_DEFAULTS, ...settings.preferences },
    config: { enabled: config.enabled === true, publicKey: config.publicKey },
  };
}

/** Where this browser stands: still checking, subscribed (and which device of the list it is), or not. */
type Here = { checked: false } | { checked: true; subscribed: boolean; deviceId: string | null };

const card = 'space-y-5 rounded-3xl bg-white p-4 ring-1 ring-slate-200/70 sm:p-5 dark:bg-ink-900 dark:ring-white/10';
const primary =
  'brand-gradient inline-flex min-h-11 items-center justify-center rounded-full px-5 text-sm font-bold text-white shadow-md shadow-fuchsia-600/20 transition hover:brightness-110 disabled:opacity-60';
const secondary =
  'inline-flex min-h-10 shrink-0 items-center rounded-full px-4 text-sm font-bold text-slate-800 ring-1 ring-slate-300 transition hover:bg-slate-100 disabled:opacity-60 dark:text-slate-100 dark:ring-white/20 dark:hover:bg-white/10';
const note =
  'rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100';

/** The profile's settings: 'Notificaciones push': this device, the fan's devices ('Quitar') and the kinds to be told of. */
export function PushSettings() {
  const query = useQuery<Loaded>(['push-settings'], (signal) => Promise.all([fetchPushSettings(signal), fetchPushConfig(signal)]).then(loaded));
  if (query.status === 'error') {
    return (
      <div className={card}>
        <TabError message={errorMessage(query.error, PUSH_TEXTS.loadFailed)} onRetry={query.refetch} />
      </div>
    );
  }
  if (query.status !== 'ready') {
    return (
      <div aria-busy="true" className={card}>
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          Cargando…
        </p>
      </div>
    );
  }
  return <PushSettingsCard data={query.data} setData={query.setData} />;
}

function PushSettingsCard({ data, setData }: { data: Loaded; setData: (update: (current: Loaded) => Loaded) => void }) {
  const [here, setHere] = useState<Here>({ checked: false });
  const [permission, setPermission] = useState(notificationPermission);
  const [support] = useState(pushSupport);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const devicesTitleRef = useRef<HTMLHeadingElement>(null);
  const devicesTitleId = useId();

  // Which listed device this browser is: the id kept when it subscribed, or the one the service
  // worker recorded after the browser rotated the subscription.
  const deviceIds = data.devices.map((device) => device.id).join(',');
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const subscription = await currentSubscription().catch(() => null);
      const listed = new Set(deviceIds.split(','));
      const candidates = [storedDeviceId(), await recordedDeviceId()];
      const deviceId = subscription ? (candidates.find((id) => id !== null && listed.has(id)) ?? null) : null;
      if (cancelled) return;
      if (deviceId !== storedDeviceId()) storeDeviceId(deviceId);
      setHere({ checked: true, subscribed: deviceId !== null, deviceId });
    })();
    return () => {
      cancelled = true;
    };
  }, [deviceIds]);

  function showDevices(devices: PushDevice[]) {
    setData((current) => ({ ...current, devices }));
  }

  async function enable() {
    if (busy) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await enableThisDevice();
      setPermission(notificationPermission());
      if (result.status === 'enabled') {
        const { device } = result;
        setData((current) => ({ ...current, devices: [device, ...current.devices.filter((d) => d.id !== device.id)] }));
        setHere({ checked: true, subscribed: true, deviceId: device.id });
        setDone(PUSH_TEXTS.enabled);
      } else if (result.status === 'unavailable') {
        setError(PUSH_TEXTS.unsupported);
      }
    } catch (failure) {
      console.debug(PUSH_TEXTS.failed, failure);
      setError(errorMessage(failure, PUSH_TEXTS.failed));
    } finally {
      setBusy(false);
    }
  }

  async function remove(device: PushDevice) {
    if (busy) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const settings = await removePushDevice(device.id);
      if (here.checked && here.deviceId === device.id) {
        await unsubscribeThisDevice();
        setHere({ checked: true, subscribed: false, deviceId: null });
      }
      showDevices(settings.devices);
      setDone(PUSH_TEXTS.removed);
      devicesTitleRef.current?.focus();
    } catch (failure) {
      console.debug(PUSH_TEXTS.failed, failure);
      setError(errorMessage(failure, PUSH_TEXTS.failed));
    } finally {
      setBusy(false);
    }
  }

  const thisDevice = here.checked ? data.devices.find((device) => device.id === here.deviceId) : undefined;

  return (
    <div className={card}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{PUSH_TEXTS.settingsIntro}</p>

      {!data.config.enabled ? (
        <p className={note}>{PUSH_OFF_TEXT}</p>
      ) : support === 'ios' ? (
        <p className={note}>{PUSH_TEXTS.ios}</p>
      ) : support === 'unsupported' ? (
        <p className={note}>{PUSH_TEXTS.unsupported}</p>
      ) : permission === 'denied' ? (
        <p className={note}>{PUSH_TEXTS.denied}</p>
      ) : !here.checked ? null : here.subscribed && thisDevice ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm font-medium text-emerald-700 dark:text-emerald-300">{PUSH_TEXTS.enabled}</p>
          <button type="button" onClick={() => void remove(thisDevice)} disabled={busy} className={secondary}>
            {PUSH_TEXTS.disable}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => void enable()} disabled={busy} aria-busy={busy} className={primary}>
          {busy ? PUSH_TEXTS.enabling : PUSH_TEXTS.enable}
        </button>
      )}

      {error && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
      {/* Announces what a click did; 'activas' is already on screen above, so it is only read out. */}
      <p role="status" className={done && done !== PUSH_TEXTS.enabled ? 'text-sm font-medium text-emerald-700 dark:text-emerald-300' : 'sr-only'}>
        {done}
      </p>

      <section aria-labelledby={devicesTitleId} className="space-y-3">
        <h4 id={devicesTitleId} ref={devicesTitleRef} tabIndex={-1} className="font-bold outline-none">
          {PUSH_TEXTS.devicesTitle}
        </h4>
        {data.devices.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{PUSH_TEXTS.devicesEmpty}</p>
        ) : (
          <ul aria-labelledby={devicesTitleId} className="divide-y divide-slate-100 dark:divide-white/10">
            {data.devices.map((device) => (
              <li key={device.id} className="flex items-center gap-3 py-2.5">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 font-semibold break-words">
                    {device.browser}
                    {thisDevice?.id === device.id && (
                      <span className="rounded-full bg-fuchsia-100 px-2 py-0.5 text-xs font-bold text-fuchsia-800 dark:bg-fuchsia-500/20 dark:text-fuchsia-200">
                        {PUSH_TEXTS.thisDevice}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    Desde el <time dateTime={device.createdAt}>{formatDate(device.createdAt)}</time>
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => void remove(device)}
                  disabled={busy}
                  aria-label={`${PUSH_TEXTS.remove} ${device.browser}${thisDevice?.id === device.id ? ` (${PUSH_TEXTS.thisDevice.toLowerCase()})` : ''}`}
                  className={secondary}
                >
                  {PUSH_TEXTS.remove}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {data.config.enabled && (
        <PreferenceToggles preferences={data.preferences} onSaved={(preferences) => setData((current) => ({ ...current, preferences }))} />
      )}
    </div>
  );
}

/** One switch per kind, saved (PUT, every kind) as soon as it changes; a failed save puts back what the server has. */
function PreferenceToggles({ preferences, onSaved }: { preferences: PushPreferences; onSaved: (preferences: PushPreferences) => void }) {
  const [shown, setShown] = useState(preferences);
  const [message, setMessage] = useState<{ tone: 'saved' | 'error'; text: string } | null>(null);
  const latest = useRef(0);
  const idPrefix = useId();

  async function toggle(kind: PushKind, on: boolean) {
    const next = { ...shown, [kind]: on };
    setShown(next);
    setMessage(null);
    const attempt = ++latest.current;
    try {
      const saved = await savePushPreferences(next);
      if (attempt !== latest.current) return;
      setShown(saved);
      onSaved(saved);
      setMessage({ tone: 'saved', text: PUSH_TEXTS.saved });
    } catch (failure) {
      if (attempt !== latest.current) return;
      console.debug(PUSH_TEXTS.failed, failure);
      setShown(preferences);
      setMessage({ tone: 'error', text: errorMessage(failure, 'No se pudieron guardar tus preferencias') });
    }
  }

  return (
    <fieldset className="space-y-1">
      <legend className="mb-2 font-bold">{PUSH_TEXTS.preferencesTitle}</legend>
      {PUSH_KINDS.map((kind) => {
        const id = `${idPrefix}-${kind}`;
        return (
          <div key={kind} className="flex items-start justify-between gap-4 py-2">
            <div className="min-w-0">
              <label htmlFor={id} className="font-semibold">
                {PUSH_KIND_LABELS[kind]}
              </label>
              <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
                {PUSH_KIND_HINTS[kind]}
              </p>
            </div>
            <input
              id={id}
              type="checkbox"
              role="switch"
              checked={shown[kind]}
              onChange={(event) => void toggle(kind, event.target.checked)}
              aria-describedby={`${id}-hint`}
              className="relative mt-1 h-7 w-12 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:absolute before:top-1 before:left-1 before:size-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-fuchsia-600 checked:before:translate-x-5 dark:bg-white/20 dark:checked:bg-fuchsia-500"
            />
          </div>
        );
      })}
      {message?.tone === 'error' && (
        <p role="alert" className="pt-1 text-sm font-medium text-rose-600 dark:text-rose-400">
          {message.text}
        </p>
      )}
      <p role="status" className={message?.tone === 'saved' ? 'pt-1 text-sm font-medium text-emerald-700 dark:text-emerald-300' : 'sr-only'}>
        {message?.tone === 'saved' ? message.text : null}
      </p>
    </fieldset>
  );
}
