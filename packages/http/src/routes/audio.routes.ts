import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '@research/core';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import { principalOf, scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { assertAudioConfigured, downloadAudio, transcribeAudio, type AudioFile } from '../services/audio.service';
import type { ResearchTools } from '../services/research-tools';
import { parseBody, validationError } from '../validation';
import { audioUploadFieldsSchema, audioUrlBodySchema, type TranscriptionResponse } from './audio.schemas';

/**
 * `POST /audio/transcribe`: a multipart upload (`file`, optional `language`, `prompt`) held in memory up
 * to AUDIO_MAX_BYTES, or JSON `{audio_url}` fetched through the crawler's guard.
 */
export function createAudioRouter(ctx: AppContext, tools: ResearchTools): Router {
  const router = Router();
  const maxBytes = ctx.config.audio.maxBytes;
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 12 },
  }).single('file');
  const json = jsonBody();
  const parseEither: RequestHandler = (req, res, next) =>
    req.is('multipart/form-data') ? upload(req, res, next) : json(req, res, next);
  const uploadErrors: ErrorRequestHandler = (error, _req, _res, next) => {
    if (!(error instanceof multer.MulterError)) return next(error);
    if (error.code === 'LIMIT_FILE_SIZE')
      return next(new AppError('payload_too_large', `file: the audio is larger than ${maxBytes} bytes`));
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT')
      return next(validationError('file', 'only one audio file in the field `file` is read'));
    next(new AppError('bad_request', `Malformed multipart body (${error.code}).`));
  };
  // Without a provider nothing is read: 503 before an upload is buffered.
  const configured: RequestHandler = (_req, _res, next) => {
    assertAudioConfigured(ctx.config);
    next();
  };
  // The key is checked for this path only, so an unknown path stays a 404 without one (as elsewhere).
  router.use('/transcribe', requireApiKey(ctx), configured, parseEither, uploadErrors);
  router.post('/transcribe', async (req, res) => {
    const signal = requestSignal(res);
    const scope = scopeOf(res);
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
      file = await downloadAudio(tools, ctx.config, principalOf(res).userId, input.audio_url, signal);
      options = { language: input.language, prompt: input.prompt, field: 'audio_url' };
    }
    const result = await transcribeAudio(tools, ctx.config, scope, file, options, signal);
    res.json(result satisfies TranscriptionResponse);
  });
  return router;
}
