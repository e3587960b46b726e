import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError, isAppError, validationError } from '@research/core';
import { refuseDeclaredOver } from './body-parsing';

// How the routes that take a file read it (POST /audio/transcribe, POST /v1/collections/{id}/documents): one
// multipart upload held in memory up to the route's limit, a declared length beyond it refused before a byte is
// read, and every way a multipart body can be wrong answered as the client's fault.

/** Bytes of one text field of an upload (`language`, `prompt`). */
export const UPLOAD_FIELD_BYTES = 8 * 1024;
const UPLOAD_LIMITS = { files: 1, fields: 10, fieldSize: UPLOAD_FIELD_BYTES, parts: 12 };
// One part's framing: busboy reads at most 16 KiB of part headers, plus the boundary lines around them.
const PART_FRAMING_BYTES = 17 * 1024;
/** What an upload's body may hold beside the file itself: every text field and the framing of every part. */
const UPLOAD_OVERHEAD_BYTES = UPLOAD_LIMITS.fields * UPLOAD_LIMITS.fieldSize + UPLOAD_LIMITS.parts * PART_FRAMING_BYTES;

// busboy reports a body it cannot read as a plain Error (a missing boundary, a body that ends before its
// closing boundary, a broken part header): the client's fault, answered with a fixed text.
const MULTIPART_ERROR_DETAILS: Readonly<Record<string, string>> = {
  'Multipart: Boundary not found': 'Malformed multipart body: the Content-Type has no boundary.',
  'Malformed content type': 'Malformed multipart body: the Content-Type cannot be parsed.',
  'Unexpected end of form': 'Malformed multipart body: it ends before its closing boundary.',
  'Unexpected end of file': 'Malformed multipart body: it ends inside a file.',
  'Malformed part header': 'Malformed multipart body: a part header cannot be parsed.',
};

export interface FileUploadOptions {
  /** Largest file (413 above). */
  maxBytes: number;
  /** What the file is, in the answers' texts: "audio", "document". */
  noun: string;
  /** Text fields the route reads: one over UPLOAD_FIELD_BYTES is a 422 on that field. */
  fields?: readonly string[];
}

/** The 4xx of an upload multer could not read. */
function uploadError(error: unknown, options: FileUploadOptions): unknown {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new AppError('payload_too_large', `file: the ${options.noun} is larger than ${options.maxBytes} bytes`);
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT')
      return validationError('file', `only one ${options.noun} file in the field \`file\` is read`);
    if (error.code === 'LIMIT_FIELD_VALUE' && error.field !== undefined && options.fields?.includes(error.field))
      return validationError(error.field, `must be at most ${UPLOAD_FIELD_BYTES} bytes`);
    if (error.code === 'LIMIT_PART_COUNT' || error.code === 'LIMIT_FIELD_COUNT')
      return new AppError(
        'bad_request',
        `Too many parts in the multipart body (at most ${UPLOAD_LIMITS.parts}, ${UPLOAD_LIMITS.fields} of them fields).`,
      );
    return new AppError('bad_request', `Malformed multipart body (${error.code}).`);
  }
  if (isAppError(error)) return error;
  // Anything else out of the multipart reader is about the body it was sent (or a client gone mid-upload).
  const message = error instanceof Error ? error.message : '';
  return new AppError('bad_request', MULTIPART_ERROR_DETAILS[message] ?? 'Malformed multipart body.');
}

/**
 * Reads a multipart body's one file (field `file`) into `req.file`, in memory up to `maxBytes`, and its text
 * fields into `req.body`. A declared length no upload within the limits can have is refused before multer reads
 * a byte.
 */
export function fileUpload(options: FileUploadOptions): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { ...UPLOAD_LIMITS, fileSize: options.maxBytes },
  }).single('file');
  const refuseOversizedUpload = refuseDeclaredOver(options.maxBytes + UPLOAD_OVERHEAD_BYTES);
  return (req, res, next) => {
    refuseOversizedUpload(req, res, (refused?: unknown) => {
      if (refused !== undefined) return next(refused);
      upload(req, res, (error?: unknown) => next(error === undefined ? undefined : uploadError(error, options)));
    });
  };
}
