import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { AppError, isAppError } from '@research/core';
import type { AppContext } from '../context';
import { jsonBody, refuseDeclaredOver } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import { reserveOutboundSlot } from '../middleware/outbound-slot';
import { outboundOf, scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { assertAudioConfigured, downloadAudio, transcribeAudio, type AudioFile } from '@research/runs';
import { validationError } from '@research/core';
import { parseBody } from '../validation';
import { audioUploadFieldsSchema, audioUrlBodySchema, type TranscriptionResponse } from './audio.schemas';

/** Bytes of one text field of an upload (`language`, `prompt`). */
const UPLOAD_FIELD_BYTES = 8 * 1024;
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

/** The 4xx of an upload multer could not read. */
function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new AppError('payload_too_large', `file: the audio is larger than ${maxBytes} bytes`);
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT')
      return validationError('file', 'only one audio file in the field `file` is read');
    if (error.code === 'LIMIT_FIELD_VALUE' && (error.field === 'language' || error.field === 'prompt'))
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
 * `POST /audio/transcribe`: a multipart upload (`file`, optional `language`, `prompt`) held in memory up
 * to AUDIO_MAX_BYTES, or JSON `{audio_url}` fetched through the crawler's guard.
 */
export function createAudioRouter(ctx: AppContext): Router {
  const { tools } = ctx;
  const router = Router();
  const maxBytes = ctx.config.audio.maxBytes;
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { ...UPLOAD_LIMITS, fileSize: maxBytes },
  }).single('file');
  // A declared length no upload within the limits can have is refused before multer reads a byte.
  const refuseOversizedUpload = refuseDeclaredOver(maxBytes + UPLOAD_OVERHEAD_BYTES);
  const json = jsonBody();
  const parseEither: RequestHandler = (req, res, next) => {
    if (!req.is('multipart/form-data')) return json(req, res, next);
    refuseOversizedUpload(req, res, (refused?: unknown) => {
      if (refused !== undefined) return next(refused);
      upload(req, res, (error?: unknown) => next(error === undefined ? undefined : uploadError(error, maxBytes)));
    });
  };
  // Without a provider nothing is read: 503 before an upload is buffered.
  const configured: RequestHandler = (_req, _res, next) => {
    assertAudioConfigured(ctx.config);
    next();
  };
  // The key is checked for this path only, so an unknown path stays a 404 without one (as elsewhere). The
  // caller's outbound slot is taken before the body is read: at its limit, a caller's upload is never buffered.
  router.use('/transcribe', requireApiKey(ctx), configured, reserveOutboundSlot(tools), parseEither);
  router.post('/transcribe', async (req, res) => {
    const signal = requestSignal(res);
    const scope = scopeOf(res);
    const outbound = outboundOf(res);
    let file: AudioFile;
    let options: { language?: string; prompt?: string; field: string };
    if (req.is('multipart/form-data')) {
      const fields = parseBody(audioUploadFieldsSchema, { ...(req.body ?? {}) }, { required: false });
      if (!req.file) throw validationError('file', 'Required');
      if (req.file.size === 0) throw validationError('file', 'must not be empty');
      file = {
        body: req.file.buffer,
        filename: req.file.originalname || 'audio',
        mediaType: req.file.mimetype || 'application/octet-stream',
      };
      options = { ...fields, field: 'file' };
    } else {
      const input = parseBody(audioUrlBodySchema, req.body, { required: true });
      file = await downloadAudio({ tools, config: ctx.config, outbound, url: input.audio_url, signal });
      options = { language: input.language, prompt: input.prompt, field: 'audio_url' };
    }
    const result = await transcribeAudio({ config: ctx.config, scope, outbound, file, options, signal });
    res.json(result satisfies TranscriptionResponse);
  });
  return router;
}
