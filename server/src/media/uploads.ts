import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { badRequest, HttpError } from '../http/errors.ts';
import { uploadBudgetExceeded, type UploadBudget, type UploadLease } from './uploadBudget.ts';

/** Messages of a malformed upload form (beyond the wall's own, which the spec names). */
export const UPLOAD_MESSAGES = {
  notMultipart: 'El formulario debe enviarse como multipart/form-data',
  malformed: 'El formulario está incompleto o mal formado',
  unknownField: 'El formulario tiene un campo no permitido',
  unknownFileField: 'El formulario tiene un archivo en un campo no permitido',
  fieldTooLong: 'Un campo del formulario es demasiado largo',
  tooManyFields: 'El formulario tiene demasiados campos',
} as const;

/** Default byte cap of one text field (a post's 2000 characters are at most 8000 bytes of UTF-8). */
export const DEFAULT_MAX_FIELD_BYTES = 8 * 1024;
/** Default number of text fields (a post's fields plus one alt text per image, with room to spare). */
export const DEFAULT_MAX_FIELDS = 32;
/** After a refused upload the rest of the body is read and dropped for at most this long. */
const DRAIN_MS = 10_000;

/** What one multipart endpoint accepts; every limit is enforced while the body streams in. */
export interface UploadSpec {
  /** Field names that may carry files; a file in any other field is refused (400). */
  fileFields: readonly string[];
  /** Field names that may carry text; any other text field is refused (400). */
  textFields: readonly string[];
  /** More files → 400 `tooManyFilesMessage`. */
  maxFiles: number;
  /** A bigger file → 413 `fileTooLargeMessage`, refused as soon as its byte maxFileBytes + 1 arrives. */
  maxFileBytes: number;
  tooManyFilesMessage: string;
  fileTooLargeMessage: string;
  /** Bytes of one text field (default 8 KiB); longer → 400. */
  maxFieldBytes?: number;
  /** Text fields in all (default 32); more → 400. */
  maxFields?: number;
}

export interface UploadedFile {
  field: string;
  filename: string;
  /** The client's Content-Type for the file: a claim, checked against the bytes by processImage. */
  declaredType: string;
  /** The temporary file holding the bytes; removed when the request is done with it (withUploads). */
  path: string;
  bytes: number;
}

export interface Uploads {
  /** Text fields by name, in the order sent (a repeated field, e.g. one alt per image, has several). */
  fields: Record<string, string[]>;
  /** Files in the order sent. */
  files: UploadedFile[];
  /** Removes the temporary files and gives their bytes back to the budget (idempotent). */
  dispose(): Promise<void>;
}

/** Where this instance's uploads wait while they are read and processed (app.uploads). */
export interface UploadArea {
  /** A directory of this instance alone (under os.tmpdir()), removed when the app closes. */
  dir: string;
  /** UPLOAD_BYTES_IN_FLIGHT. */
  budget: UploadBudget;
}

/** An error of @fastify/multipart (codes FST_*) or of busboy (a malformed body) as the 4xx it is. */
function parserError(err: unknown, spec: UploadSpec): HttpError {
  if (err instanceof HttpError) return err;
  switch ((err as { code?: unknown }).code) {
    case 'FST_FILES_LIMIT':
      return badRequest(spec.tooManyFilesMessage);
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, spec.fileTooLargeMessage);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(UPLOAD_MESSAGES.tooManyFields);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, UPLOAD_MESSAGES.notMultipart);
    default:
      // Busboy's own (no boundary, a part cut short, malformed headers), a prototype field name,
      // a client gone mid-body: all the client's doing.
      return badRequest(UPLOAD_MESSAGES.malformed);
  }
}

/**
 * Streams one file part to `path`, refusing it the moment it passes the limit (413) or the
 * instance's upload budget (503). Memory holds a chunk or two, whatever the file's size.
 */
async function saveFile(part: MultipartFile, spec: UploadSpec, path: string, lease: UploadLease): Promise<number> {
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      // Busboy stops the stream at maxFileBytes and marks it truncated: one byte more was sent.
      if (part.file.truncated || bytes > spec.maxFileBytes) return callback(new HttpError(413, spec.fileTooLargeMessage));
      try {
        lease.charge(chunk.length);
      } catch (err) {
        return callback(err as Error);
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(part.file, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    // The disk's failure (ENOSPC, EACCES…) is ours: a 500, not the client's 400.
    if ((err as NodeJS.ErrnoException).syscall !== undefined) throw err;
    throw parserError(err, spec);
  }
  if (part.file.truncated) throw new HttpError(413, spec.fileTooLargeMessage);
  return bytes;
}

/**
 * After a refusal, the parser is detached and what is left of the body is read and dropped, so
 * the client, still sending, gets to read the answer; for at most DRAIN_MS, then the connection
 * is cut (a client streaming forever gets nothing more).
 */
function drainRest(request: FastifyRequest): void {
  const raw = request.raw;
  raw.unpipe();
  if (raw.complete || raw.destroyed) return;
  const timer = setTimeout(() => raw.destroy(), DRAIN_MS);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

/** The declared body length, when there is one. */
function declaredLength(request: FastifyRequest): number | null {
  const raw = request.headers['content-length'];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
}

/**
 * Consumes a multipart/form-data request as it streams in, enforcing `spec` on the way: the
 * number of files and fields, each file's size, each field's size and the allowed names. Each file
 * is streamed to a temporary file in app.uploads.dir, one at a time, its bytes charged to the
 * instance's upload budget as they arrive (503 with Retry-After beyond it; a declared length that
 * cannot fit is refused before a byte is read). Every refusal is a 4xx with a message for people
 * (415 for a body that is not multipart at all).
 *
 * The caller must call `dispose` when done (withUploads does); on a refusal nothing is left behind.
 * Call it after authentication and authorisation (requireWriter): a refused visitor must not get
 * to send megabytes first.
 */
export async function readUploads(request: FastifyRequest, spec: UploadSpec): Promise<Uploads> {
  if (!request.isMultipart()) throw new HttpError(415, UPLOAD_MESSAGES.notMultipart);
  const { dir, budget } = request.server.uploads;
  const declared = declaredLength(request);
  if (declared !== null && Math.min(declared, budget.capacity) > budget.free) {
    drainRest(request);
    throw uploadBudgetExceeded();
  }

  const lease = budget.lease();
  const paths: string[] = [];
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      try {
        await Promise.all(paths.map((path) => rm(path, { force: true })));
      } finally {
        lease.close();
      }
    })());

  const maxFields = spec.maxFields ?? DEFAULT_MAX_FIELDS;
  const fields: Record<string, string[]> = {};
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts({
      limits: {
        fieldNameSize: 100,
        fieldSize: spec.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
        fields: maxFields,
        files: spec.maxFiles,
        fileSize: spec.maxFileBytes,
        parts: maxFields + spec.maxFiles,
        headerPairs: 20,
      },
    });
    while (true) {
      let step: IteratorResult<Multipart>;
      try {
        step = await parts.next();
      } catch (err) {
        throw parserError(err, spec);
      }
      if (step.done) break;
      const part = step.value;
      if (part.type === 'file') {
        if (!spec.fileFields.includes(part.fieldname)) throw badRequest(UPLOAD_MESSAGES.unknownFileField);
        const path = join(dir, randomUUID());
        paths.push(path);
        const bytes = await saveFile(part, spec, path, lease);
        // An empty file input of an HTML form: no file chosen.
        if (bytes === 0 && part.filename === '') continue;
        files.push({ field: part.fieldname, filename: part.filename, declaredType: part.mimetype, path, bytes });
      } else {
        if (part.fieldnameTruncated || !spec.textFields.includes(part.fieldname)) throw badRequest(UPLOAD_MESSAGES.unknownField);
        if (part.valueTruncated) throw badRequest(UPLOAD_MESSAGES.fieldTooLong);
        (fields[part.fieldname] ??= []).push(String(part.value));
      }
    }
  } catch (err) {
    drainRest(request);
    await dispose();
    throw err;
  }
  return { fields, files, dispose };
}

/**
 * readUploads, then `use` with what was read; the temporary files are removed and their bytes
 * given back to the budget however `use` ends (an answer, an error, a client gone meanwhile).
 */
export async function withUploads<T>(request: FastifyRequest, spec: UploadSpec, use: (uploads: Uploads) => Promise<T>): Promise<T> {
  const uploads = await readUploads(request, spec);
  try {
    return await use(uploads);
  } finally {
    await uploads.dispose();
  }
}
