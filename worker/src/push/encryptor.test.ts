import { afterAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '@tribuna/contracts/pushRules';
import { startPushService } from '../../../test/support/pushService.ts';
import { generateVapidKeys } from '../../../server/src/push/vapid.ts';
import { ThreadEncryptor } from './encryptor.ts';
import { PushSender } from './sender.ts';

// The encryption thread of PUSH_NICENESS > 0, at niceness 0 here (the test run keeps the cores busy:
// in the idle class the thread would wait for a free one). What it encrypts, the push service decrypts.

const service = await startPushService();
const keys = generateVapidKeys();
const encryptor = new ThreadEncryptor(0);
const sender = new PushSender({ keys, subject: 'mailto:contacto@tribuna.mx', testEndpointOrigins: [service.origin], encryptor });

afterAll(async () => {
  sender.close();
  await service.close();
});

const payload = (id: string): PushPayload => ({
  id,
  kind: 'poll_opened',
  title: '¡Ya pueden votar!',
  body: 'Votación abierta: ¡Gran final!',
  url: '/?encuesta=1',
  at: '2026-11-28T22:00:00.000Z',
});

describe('ThreadEncryptor', () => {
  it('encrypts on its thread what the push service decrypts, for many devices at once', async () => {
    const devices = Array.from({ length: 20 }, () => service.newSubscription());
    const outcomes = await Promise.all(
      devices.map((device, i) =>
        sender.send({ endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, kind: 'poll_opened', payload: payload(`p-${i}`) }),
      ),
    );
    expect(outcomes.every((o) => o.outcome === 'sent')).toBe(true);
    devices.forEach((device, i) => expect(service.received(device).map((push) => push.data)).toEqual([payload(`p-${i}`)]));
  });

  it('refuses unusable keys without losing the thread, and starts a new thread after it died', async () => {
    const device = service.newSubscription();
    const bad = await sender.send({
      endpoint: device.endpoint,
      p256dh: 'AAAA'.repeat(22),
      auth: device.keys.auth,
      kind: 'poll_opened',
      payload: payload('bad'),
    });
    expect(bad).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^cannot encrypt/) });

    await encryptor.close();
    const after = await sender.send({
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
      kind: 'poll_opened',
      payload: payload('after'),
    });
    expect(after.outcome).toBe('sent');
    expect(service.received(device).map((push) => (push.data as PushPayload).id)).toEqual(['after']);
  });
});
