import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import fp from 'fastify-plugin';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { ConcurrencyLimiter } from '../media/limiter.ts';
import { createMediaService, type MediaService } from '../media/service.ts';
import { LocalDiskStorage } from '../media/storage.ts';
import { UploadBudget } from '../media/uploadBudget.ts';
import { createUploadDir, removeOrphanUploadDirs } from '../media/uploadDirs.ts';
import { DEFAULT_MAX_FIELD_BYTES, type UploadArea } from '../media/uploads.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The image pipeline: ingest uploads, discard them after a failed transaction (media/service.ts). */
    media: MediaService;
    /** Where uploads wait while read and processed, and the instance's budget of their bytes (media/uploads.ts). */
    uploads: UploadArea;
  }
}

/** Images processed at once on this instance, and how many may wait for a turn (then 503). */
export const MEDIA_CONCURRENCY = { running: 2, waiting: 16 } as const;

/** What may be served from MEDIA_DIR: only the formats the pipeline writes (a clip's transcoded MP4 too, never its upload). */
const SERVED_TYPES: Record<string, string> = { '.webp': 'image/webp', '.avif': 'image/avif', '.mp4': 'video/mp4' };
const extensionOf = (path: string) => /\.[a-z0-9]+$/i.exec(path)?.[0].toLowerCase() ?? '';

/**
 * Uploaded images under MEDIA_DIR, served at /media/, and the pipeline that writes them
 * (app.media). Multipart bodies are parsed only by readUploads (media/uploads.ts), which passes
 * each endpoint's exact limits and streams files to app.uploads.dir; the defaults here are the
 * strictest, for any other caller.
 */
export default fp(
  async (app) => {
    const storage = new LocalDiskStorage(app.config.mediaDir);
    await mkdir(storage.root, { recursive: true });
    const limiter = new ConcurrencyLimiter(MEDIA_CONCURRENCY.running, MEDIA_CONCURRENCY.waiting);
    app.decorate('media', createMediaService({ storage, db: app.database.db, limiter }));

    // Uploaded files are streamed here, never held in memory; each request removes its own
    // (withUploads), and the directory goes with the app. Those of crashed processes go at the next start.
    const orphans = await removeOrphanUploadDirs(tmpdir());
    if (orphans > 0) app.log.info({ removed: orphans }, 'upload directories of stopped processes removed');
    const uploadDir = await createUploadDir(tmpdir());
    app.decorate('uploads', { dir: uploadDir, budget: new UploadBudget(app.config.uploadBytesInFlight) });
    app.addHook('onClose', async () => {
      await rm(uploadDir, { recursive: true, force: true });
    });

    await app.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: { fieldNameSize: 100, fieldSize: DEFAULT_MAX_FIELD_BYTES, fields: 10, files: 1, fileSize: 1024 * 1024, parts: 20, headerPairs: 20 },
    });

    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      // Anything else in the directory (a stray upload, a temporary file) is not there as far as clients know.
      allowedPath: (pathName) => extensionOf(pathName) in SERVED_TYPES,
      setHeaders: (reply, path) => {
        // Keys are content hashes (or hand-placed seed files that are never rewritten): cache forever.
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        reply.header('content-type', SERVED_TYPES[extensionOf(path)]!);
        // Always shown inline. The security plugin adds nosniff and a sandboxing CSP to everything
        // under /media/: an upload is never sniffed into, nor run as, a document.
        reply.header('content-disposition', 'inline');
      },
    });
  },
  { name: 'media', dependencies: ['config', 'db', 'static'] },
);
