import { inject } from 'vitest';
import { loadConfig, type Config } from '@tribuna/contracts/config';
import { fileContext } from './fileContext.ts';

/** Environment variables of this test file (its own database and Redis prefix, see test/fileSetup.ts). */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    // app.inject sends `Host: localhost:80` and clients of a listening test app `127.0.0.1:<port>`,
    // whatever PUBLIC_URL a test picks: both are this site's here. Tests of the Host check unset it.
    ALLOWED_HOSTS: 'localhost,127.0.0.1',
    DATABASE_URL: fileContext().databaseUrl,
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: fileContext().redisPrefix,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
    MEDIA_DIR: './data/test-media',
    LOG_LEVEL: 'silent',
    // FFmpeg and push encryption at normal priority: the test run keeps every core busy, and in the
    // idle scheduling class they would wait for a free core as long as that lasts.
    TRANSCODE_NICENESS: '0',
    PUSH_NICENESS: '0',
    ...overrides,
  };
}

export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(testEnv(overrides));
}
